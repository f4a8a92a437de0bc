import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Addresses the relay never connects to unless the operator named the host: everything that is
 * not the public internet (IANA's special-purpose registries), so that a user cannot make the
 * server reach its own loopback services, the local network or a cloud metadata endpoint.
 */
const SPECIAL_RANGES: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, 'an unspecified'],
  ['10.0.0.0', 8, 'a private'],
  ['100.64.0.0', 10, 'a shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'a loopback'],
  ['169.254.0.0', 16, 'a link-local'],
  ['172.16.0.0', 12, 'a private'],
  ['192.0.0.0', 24, 'a reserved'],
  ['192.0.2.0', 24, 'a documentation'],
  ['192.88.99.0', 24, 'a reserved'],
  ['192.168.0.0', 16, 'a private'],
  ['198.18.0.0', 15, 'a benchmarking'],
  ['198.51.100.0', 24, 'a documentation'],
  ['203.0.113.0', 24, 'a documentation'],
  ['224.0.0.0', 4, 'a multicast'],
  ['240.0.0.0', 4, 'a reserved'],
  ['::', 128, 'an unspecified'],
  ['::1', 128, 'a loopback'],
  ['100::', 64, 'a discard'],
  ['2001::', 23, 'a reserved'],
  ['2001:db8::', 32, 'a documentation'],
  ['fc00::', 7, 'a private (unique local)'],
  ['fe80::', 10, 'a link-local'],
  ['fec0::', 10, 'a site-local'],
  ['ff00::', 8, 'a multicast'],
];

const ranges = SPECIAL_RANGES.map(([network, prefix, label]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, isIPv4(network) ? 'ipv4' : 'ipv6');
  return { list, label };
});

/**
 * Why `address` is not a public internet address ("a loopback", "a private", …), or null when
 * it is. IPv6 forms that carry an IPv4 address (mapped, NAT64, 6to4) are judged by that address,
 * so `::ffff:127.0.0.1` is loopback too.
 */
export function specialAddressKind(address: string): string | null {
  const embedded = isIPv6(address) ? embeddedIPv4(address) : null;
  if (embedded !== null) return specialAddressKind(embedded);
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : null;
  if (family === null) return 'an unreadable';
  for (const { list, label } of ranges) {
    if (list.check(address, family)) return label;
  }
  return null;
}

/** The IPv4 address inside `::ffff:a.b.c.d`, `64:ff9b::a.b.c.d` or `2002:AABB:CCDD::`. */
function embeddedIPv4(address: string): string | null {
  const words = ipv6Words(address);
  const v4 = (high: number, low: number) =>
    [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  const zero = (from: number, to: number) => words.slice(from, to).every((word) => word === 0);
  if (zero(0, 5) && words[5] === 0xffff) return v4(words[6] ?? 0, words[7] ?? 0);
  if (words[0] === 0x64 && words[1] === 0xff9b && zero(2, 6)) {
    return v4(words[6] ?? 0, words[7] ?? 0);
  }
  if (words[0] === 0x2002) return v4(words[1] ?? 0, words[2] ?? 0);
  return null;
}

/** The eight 16-bit words of an IPv6 address (a trailing dotted IPv4 part included). */
function ipv6Words(address: string): number[] {
  let text = address.toLowerCase().split('%', 1)[0] ?? '';
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((w) => parseInt(w, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const middle = new Array<number>(Math.max(0, 8 - left.length - right.length)).fill(0);
  return [...left, ...middle, ...right];
}
