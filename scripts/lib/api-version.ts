/** `b` raised over `a` as docs/api.md section 12 asks: the major version, the minor while 0.x. */
export function versionRaisedForBreaking(released: string, current: string): boolean {
  const [ma = 0, mi = 0] = released.split('.').map(Number);
  const [mb = 0, mib = 0] = current.split('.').map(Number);
  return ma === 0 ? mb > 0 || mib > mi : mb > ma;
}
