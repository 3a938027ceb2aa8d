//! Which addresses the remote check may connect to. A docs checker runs
//! in CI, inside a network it must not probe: loopback, private,
//! link-local and the other non-global ranges are refused unless the
//! user allows them. The check is made on every address a name resolves
//! to (`SafeResolver`) and on IP literals before a request, so a
//! connection cannot go around it.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// Why an address is not requested, or `None` when it is a global one.
pub fn refused_range(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => refused_v4(v4),
        IpAddr::V6(v6) => refused_v6(v6),
    }
}

fn refused_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    Some(match (a, b) {
        (127, _) => "loopback",
        (10, _) | (192, 168) => "private",
        (172, 16..=31) => "private",
        (169, 254) => "link-local",
        // 0.0.0.0/8 is "this network": Linux connects 0.0.0.0 to the
        // local host.
        (0, _) => "unspecified",
        // Shared address space of carrier-grade NAT (RFC 6598).
        (100, 64..=127) => "private",
        (192, 0) if c == 0 => "reserved",
        (198, 18..=19) => "reserved",
        (224..=239, _) => "multicast",
        (240..=255, _) => "reserved",
        _ => return None,
    })
}

fn refused_v6(ip: Ipv6Addr) -> Option<&'static str> {
    if ip.is_loopback() {
        return Some("loopback");
    }
    if ip.is_unspecified() {
        return Some("unspecified");
    }
    // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d, the
    // deprecated form) addresses reach the IPv4 address inside; so do
    // NAT64's well-known prefix 64:ff9b::/96 on networks that have one.
    let s = ip.segments();
    if s[..5] == [0; 5] && (s[5] == 0xffff || s[5] == 0)
        || s[..6] == [0x64, 0xff9b, 0, 0, 0, 0]
    {
        let [.., a, b, c, d] = ip.octets();
        return refused_v4(Ipv4Addr::new(a, b, c, d));
    }
    Some(match s[0] {
        0xfc00..=0xfdff => "private",
        0xfe80..=0xfebf => "link-local",
        // Deprecated site-local addresses are private in effect.
        0xfec0..=0xfeff => "private",
        0xff00..=0xffff => "multicast",
        _ => return None,
    })
}

/// A DNS resolver for reqwest that drops the refused addresses of
/// [`refused_range`] from each answer, and fails when none is left: a
/// public name that resolves to 10.0.0.1 is refused like 10.0.0.1 itself.
/// Names are resolved by the system (`getaddrinfo`, on tokio's blocking
/// pool), as reqwest does by default.
#[derive(Clone, Copy, Debug)]
pub(super) struct SafeResolver;

impl reqwest::dns::Resolve for SafeResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        Box::pin(async move {
            let host = name.as_str().to_string();
            let found: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let (kept, refused): (Vec<SocketAddr>, Vec<SocketAddr>) = found
                .into_iter()
                .partition(|a| refused_range(a.ip()).is_none());
            if kept.is_empty() {
                let why = match refused.first() {
                    Some(a) => RefusedName {
                        host,
                        ip: Some(a.ip()),
                        range: refused_range(a.ip()).unwrap_or("private"),
                    },
                    None => RefusedName { host, ip: None, range: "" },
                };
                return Err(Box::new(why) as Box<_>);
            }
            Ok(Box::new(kept.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

/// A name that resolved only to refused addresses (or to none).
#[derive(Debug)]
pub(super) struct RefusedName {
    pub(super) host: String,
    pub(super) ip: Option<IpAddr>,
    pub(super) range: &'static str,
}

impl std::fmt::Display for RefusedName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.ip {
            Some(ip) => write!(
                f,
                "not requested: {} resolves to {ip}, a {} address (--allow-private to check it)",
                self.host, self.range
            ),
            None => write!(f, "{} resolves to no address", self.host),
        }
    }
}

impl std::error::Error for RefusedName {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_and_mapped_private_are_refused_global_is_not() {
        let r = |s: &str| refused_range(s.parse().unwrap());
        assert_eq!(r("127.0.0.1"), Some("loopback"));
        assert_eq!(r("::ffff:10.0.0.1"), Some("private"));
        assert_eq!(r("93.184.215.14"), None);
    }

    fn r(s: &str) -> Option<&'static str> {
        refused_range(s.parse().unwrap())
    }

    #[test]
    fn ipv4_ranges() {
        for (ip, want) in [
            ("127.0.0.1", Some("loopback")),
            ("127.255.3.4", Some("loopback")),
            ("10.1.2.3", Some("private")),
            ("172.16.0.1", Some("private")),
            ("172.31.255.255", Some("private")),
            ("172.32.0.1", None),
            ("172.15.0.1", None),
            ("192.168.1.1", Some("private")),
            ("192.169.1.1", None),
            ("169.254.169.254", Some("link-local")),
            ("0.0.0.0", Some("unspecified")),
            ("100.64.0.1", Some("private")),
            ("100.128.0.1", None),
            ("224.0.0.1", Some("multicast")),
            ("255.255.255.255", Some("reserved")),
            ("8.8.8.8", None),
            ("1.1.1.1", None),
        ] {
            assert_eq!(r(ip), want, "{ip}");
        }
    }

    #[test]
    fn ipv6_ranges() {
        for (ip, want) in [
            ("::1", Some("loopback")),
            ("::", Some("unspecified")),
            ("fe80::1", Some("link-local")),
            ("febf::1", Some("link-local")),
            ("fc00::1", Some("private")),
            ("fd12:3456::1", Some("private")),
            ("fec0::1", Some("private")),
            ("ff02::1", Some("multicast")),
            ("2606:4700::1111", None),
            ("2001:db8::1", None),
        ] {
            assert_eq!(r(ip), want, "{ip}");
        }
    }

    #[test]
    fn mapped_addresses_are_judged_by_the_ipv4_inside() {
        for (ip, want) in [
            ("::ffff:127.0.0.1", Some("loopback")),
            ("::ffff:7f00:1", Some("loopback")),
            ("::ffff:192.168.0.1", Some("private")),
            ("::ffff:169.254.1.1", Some("link-local")),
            ("::ffff:8.8.8.8", None),
            ("::127.0.0.1", Some("loopback")),
            ("64:ff9b::10.0.0.1", Some("private")),
            ("64:ff9b::8.8.8.8", None),
        ] {
            assert_eq!(r(ip), want, "{ip}");
        }
    }
}
