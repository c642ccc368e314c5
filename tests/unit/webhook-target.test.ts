import { describe, expect, it } from 'vitest';
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
});
