import { describe, expect, it, vi } from 'vitest';
import { isForbiddenAddress } from '#shared/domain/integrations/webhook-target';

/** The webhook target guard's address classification (the connect-time check calls the same function). */

const forbidden = (list: string[], allowLoopback = false) => {
  for (const a of list) expect(isForbiddenAddress(a, allowLoopback), a).toBe(true);
};
const allowed = (list: string[], allowLoopback = false) => {
  for (const a of list) expect(isForbiddenAddress(a, allowLoopback), a).toBe(false);
};

describe('webhook target addresses', () => {
  it('refuses every IPv4 range that is not public unicast', () => {
    forbidden([
      '0.0.0.0',
      '10.0.0.1',
      '100.64.0.1', // CGNAT
      '127.0.0.1',
      '127.255.255.254',
      '169.254.169.254', // cloud metadata
      '172.16.0.1',
      '172.31.255.255',
      '192.0.0.8',
      '192.0.2.1', // documentation
      '192.168.1.1',
      '198.18.0.1', // benchmarking
      '198.51.100.7',
      '203.0.113.9',
      '224.0.0.1', // multicast
      '240.0.0.1',
      '255.255.255.255',
    ]);
    allowed(['93.184.216.34', '8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1']);
  });

  it('reads decimal, octal, hex and short IPv4 forms as the address they name', () => {
    forbidden(['2130706433', '0177.0.0.1', '0x7f.1', '0x7f000001', '127.1', '10.1', '0xa9fe.0xa9fe']);
    allowed(['134744072', '0x08080808']); // 8.8.8.8
  });

  it('refuses IPv6 loopback, unspecified, link-local, unique-local, site-local, multicast and non-global space', () => {
    forbidden([
      '::',
      '::1',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd00::1',
      'fd00:ec2::254', // EC2 metadata over IPv6
      'fec0::1', // deprecated site-local
      'ff02::1',
      '2001:db8::1', // documentation
      '100::1', // discard
      '4000::1', // outside 2000::/3
    ]);
    allowed(['2606:4700::1111', '2a00:1450:4001:82b::200e', '2606:2800:220:1:248:1893:25c8:1946']);
  });

  it('unwraps IPv4 embedded in IPv6 (mapped, compatible, translated, NAT64, 6to4, Teredo) and checks it', () => {
    forbidden([
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      '::7f00:1', // ::127.0.0.1, IPv4-compatible
      '::10.0.0.1',
      '::a9fe:a9fe',
      '::ffff:0:127.0.0.1', // IPv4-translated (RFC 6145)
      '::ffff:0:a00:1',
      '64:ff9b::10.0.0.1', // NAT64 well-known prefix
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::808:808', // NAT64 local-use prefix: never public
      '2002:7f00:1::1', // 6to4 of 127.0.0.1
      '2002:a00:1::1', // 6to4 of 10.0.0.1
      '2002:a9fe:a9fe::', // 6to4 of 169.254.169.254
      '2001:0:4136:e378:8000:63bf:f5ff:fffe', // Teredo, client 10.0.0.1
      '2001:0:a00:1:8000:63bf:f7f7:f7f7', // Teredo, server 10.0.0.1
    ]);
    allowed([
      '::ffff:8.8.8.8',
      '::ffff:0:808:808',
      '64:ff9b::808:808',
      '2002:808:808::1',
      '2001:0:4136:e378:8000:63bf:f7f7:f7f7', // Teredo, client 8.8.8.8
    ]);
  });

  it('refuses what is not an address at all', () => {
    forbidden(['', 'localhost', 'example.com', '1.2.3.4.5', '::g', '[::1]']);
  });

  it('lets loopback through only when allowed, and never metadata or private addresses', () => {
    allowed(['127.0.0.1', '127.1', '::1', '::ffff:127.0.0.1', '2002:7f00:1::1'], true);
    forbidden(
      ['169.254.169.254', 'fd00:ec2::254', '::ffff:169.254.169.254', '10.0.0.1', 'fe80::1', '0.0.0.0', '::'],
      true,
    );
  });

  it('refuses what only contains an address: a path, credentials, a zone id not at the end, brackets', () => {
    forbidden([
      '8.8.8.8/x',
      'user@8.8.8.8',
      '8.8.8.8:80',
      '2606:4700::1111%a:1',
      '2606:4700::1111]/x',
      '2606:4700::1111]/x[::1',
      '[2606:4700::1111]',
    ]);
    // A zone id at the end is dropped: the address is what counts.
    allowed(['2606:4700::1111%eth0', '2606:4700::1111%en0.1']);
    forbidden(['fe80::1%eth0', 'fd00::1%en0']);
  });
});

describe('the range tables, range by range', () => {
  /**
   * The tables are read when the module loads. It is loaded afresh inside this test so that each
   * entry is a mutant the test covers (the mutation run skips code that only runs at import):
   * dropping or changing any one range must fail here.
   */
  const fresh = async () => {
    vi.resetModules();
    return (await import('#shared/domain/integrations/webhook-target')).isForbiddenAddress;
  };

  it('refuses an address at the start and at the end of every IPv4 range, and the neighbours outside are public', async () => {
    const isForbidden = await fresh();
    const ranges: [string, string, string[]][] = [
      ['0.0.0.0', '0.255.255.255', ['1.0.0.0']],
      ['10.0.0.0', '10.255.255.255', ['9.255.255.255', '11.0.0.0']],
      ['100.64.0.0', '100.127.255.255', ['100.63.255.255', '100.128.0.0']],
      ['127.0.0.0', '127.255.255.255', ['126.255.255.255', '128.0.0.0']],
      ['169.254.0.0', '169.254.255.255', ['169.253.255.255', '169.255.0.0']],
      ['172.16.0.0', '172.31.255.255', ['172.15.255.255', '172.32.0.0']],
      ['192.0.0.0', '192.0.0.255', ['191.255.255.255', '192.0.1.0']],
      ['192.0.2.0', '192.0.2.255', ['192.0.3.0']],
      ['192.31.196.0', '192.31.196.255', ['192.31.195.255', '192.31.197.0']],
      ['192.52.193.0', '192.52.193.255', ['192.52.192.255', '192.52.194.0']],
      ['192.88.99.0', '192.88.99.255', ['192.88.98.255', '192.88.100.0']],
      ['192.168.0.0', '192.168.255.255', ['192.167.255.255', '192.169.0.0']],
      ['192.175.48.0', '192.175.48.255', ['192.175.47.255', '192.175.49.0']],
      ['198.18.0.0', '198.19.255.255', ['198.17.255.255', '198.20.0.0']],
      ['198.51.100.0', '198.51.100.255', ['198.51.99.255', '198.51.101.0']],
      ['203.0.113.0', '203.0.113.255', ['203.0.112.255', '203.0.114.0']],
      ['224.0.0.0', '239.255.255.255', ['223.255.255.255']],
      ['240.0.0.0', '255.255.255.255', []],
    ];
    for (const [first, last, outside] of ranges) {
      expect(isForbidden(first, false), first).toBe(true);
      expect(isForbidden(last, false), last).toBe(true);
      for (const o of outside) expect(isForbidden(o, false), o).toBe(false);
    }
    // Loopback is its own range: allowed for the local runtime, and nothing next to it is.
    expect(isForbidden('127.0.0.1', true)).toBe(false);
    expect(isForbidden('127.255.255.255', true)).toBe(false);
    for (const a of ['0.0.0.0', '10.0.0.1', '169.254.169.254', '192.168.0.1', '240.0.0.1'])
      expect(isForbidden(a, true), a).toBe(true);
  });

  it('refuses every IPv6 range inside 2000::/3 that is not public unicast, and the rest of 2000::/3 is public', async () => {
    const isForbidden = await fresh();
    for (const a of [
      '2001:100::1', // 2001::/23, IETF protocol assignments (not Teredo)
      '2001:1ff:ffff::1',
      '2001:db8::1', // documentation
      '2001:db8:ffff:ffff::1',
      '2620:4f:8000::1',
      '2620:4f:8000:ffff::1',
      '3fff::1', // documentation (RFC 9637)
      '3fff:fff::1',
      // Outside 2000::/3, listed too:
      '::',
      '100::1',
      '5f00::1',
      'fc00::1',
      'fe80::1',
      'fec0::1',
      'feff::1',
      'ff00::1',
    ])
      expect(isForbidden(a, false), a).toBe(true);
    for (const a of [
      '2001:200::1',
      '2001:db9::1',
      '2620:4f:7fff::1',
      '2620:4f:8001::1',
      '3fff:1000::1',
      '2000::1',
    ])
      expect(isForbidden(a, false), a).toBe(false);
  });

  it('checks the IPv4 address an IPv6 address carries against the same tables', async () => {
    const isForbidden = await fresh();
    for (const a of [
      '::ffff:10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '2002:c0a8:101::1',
      '2001:0:a00:1:8000:63bf:f7f7:f7f7',
    ])
      expect(isForbidden(a, false), a).toBe(true);
    for (const a of ['::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])
      expect(isForbidden(a, false), a).toBe(false);
  });
});
