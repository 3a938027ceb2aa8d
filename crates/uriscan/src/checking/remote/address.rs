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
    // Addresses that carry an IPv4 address reach it (or a relay does, on
    // the network that has one), so they are judged by it.
    if let Some(v4) = embedded_v4(ip) {
        return refused_v4(v4);
    }
    let s = ip.segments();
    if s[..3] == [0x64, 0xff9b, 1] {
        // NAT64 local use (RFC 8215): the IPv4 address sits after a /96
        // prefix (the bits between are zero) or, with a /48 one, in
        // octets 6, 7, 9 and 10 (RFC 6052 2.2).
        let o = ip.octets();
        let v4 = if o[6..12] == [0; 6] {
            Ipv4Addr::new(o[12], o[13], o[14], o[15])
        } else {
            Ipv4Addr::new(o[6], o[7], o[9], o[10])
        };
        return refused_v4(v4);
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

/// The IPv4 address inside an IPv6 one: IPv4-mapped (`::ffff:0:0/96`),
/// IPv4-translated (`::ffff:0:0:0/96`), IPv4-compatible (`::/96`, the
/// deprecated form), NAT64's well-known prefix (`64:ff9b::/96`) and 6to4
/// (`2002::/16`, the IPv4 address in the next 32 bits).
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = ip.segments();
    let [.., a, b, c, d] = ip.octets();
    let last = Ipv4Addr::new(a, b, c, d);
    if s[..5] == [0; 5] && matches!(s[5], 0 | 0xffff)
        || s[..4] == [0; 4] && s[4] == 0xffff && s[5] == 0
        || s[..6] == [0x64, 0xff9b, 0, 0, 0, 0]
    {
        return Some(last);
    }
    if s[0] == 0x2002 {
        let o = ip.octets();
        return Some(Ipv4Addr::new(o[2], o[3], o[4], o[5]));
    }
    None
}

/// Why a URL is not requested by default because its host is literally
/// a local one: an IP literal in a refused range of [`refused_range`]
/// (in any form the URL parser reads as one), `localhost` and the
/// special-use names under `.localhost` and `.local` (mDNS). Such links
/// in documents name a machine of the reader's, so they are skipped, not
/// failed; a name that only resolves to such an address is still refused
/// (by `SafeResolver`), since that is how a hostile page reaches inside.
pub(super) fn literal_local_host(url: &reqwest::Url) -> Option<&'static str> {
    // The URL parser writes an IP host in its canonical form, whatever
    // its form in the link: IPv6 in brackets, IPv4 as a dotted quad.
    let host = url.host_str()?;
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = bare.parse::<IpAddr>() {
        return refused_range(ip);
    }
    let name = host.strip_suffix('.').unwrap_or(host).to_ascii_lowercase();
    (name == "localhost"
        || name.ends_with(".localhost")
        || name.ends_with(".local"))
    .then_some("local")
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
                "not requested: {} resolves to {ip}, {} {} address (--allow-private to check it)",
                self.host,
                super::fetch::article(self.range),
                self.range
            ),
            None => write!(f, "{} resolves to no address", self.host),
        }
    }
}

impl std::error::Error for RefusedName {}

#[cfg(test)]
mod tests {
    #[test]
    fn a_refused_name_reads_with_its_article() {
        let refused = |range| super::RefusedName {
            host: "x.example".into(),
            ip: Some("0.0.0.0".parse().unwrap()),
            range,
        };
        assert!(
            refused("unspecified")
                .to_string()
                .contains(", an unspecified address")
        );
        assert!(
            refused("private").to_string().contains(", a private address")
        );
    }

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
            ("::ffff:0:127.0.0.1", Some("loopback")),
            ("::ffff:0:8.8.8.8", None),
            // 6to4: the IPv4 address follows the 2002: prefix.
            ("2002:7f00:1::", Some("loopback")),
            ("2002:c0a8:0101::1", Some("private")),
            ("2002:a9fe:a9fe:0:0:0:0:1", Some("link-local")),
            ("2002:0808:0808::1", None),
            // NAT64 local use, with a /96 prefix and with a /48 one.
            ("64:ff9b:1::10.0.0.1", Some("private")),
            ("64:ff9b:1::169.254.169.254", Some("link-local")),
            ("64:ff9b:1:7f00:1:0:808:808", Some("loopback")),
            ("64:ff9b:1::8.8.8.8", None),
        ] {
            assert_eq!(r(ip), want, "{ip}");
        }
    }

    #[test]
    fn literal_local_hosts() {
        let local =
            |s: &str| literal_local_host(&reqwest::Url::parse(s).unwrap());
        assert_eq!(local("http://localhost:3000/"), Some("local"));
        assert_eq!(local("http://a.b.LOCAL./"), Some("local"));
        assert_eq!(local("http://[::1]/"), Some("loopback"));
        assert_eq!(local("http://[::ffff:a00:1]/"), Some("private"));
        assert_eq!(local("http://2130706433/"), Some("loopback"));
        assert_eq!(local("http://example.com/"), None);
        assert_eq!(local("http://localhost.example/"), None);
        assert_eq!(local("http://[2002:808:808::]/"), None);
    }

    #[test]
    fn a_name_that_resolves_to_loopback_is_refused() {
        use reqwest::dns::Resolve;
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let name: reqwest::dns::Name = "localhost".parse().unwrap();
        let err = match rt.block_on(SafeResolver.resolve(name)) {
            Ok(addrs) => panic!("resolved: {:?}", addrs.collect::<Vec<_>>()),
            Err(e) => e,
        };
        let refused = err.downcast_ref::<RefusedName>().unwrap();
        assert_eq!(refused.host, "localhost");
        assert_eq!(refused.range, "loopback");
    }
}
