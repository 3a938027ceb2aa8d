//! `Retry-After` (RFC 9110 section 10.2.3): how long a server asks a
//! client to wait, as a number of seconds or as an HTTP date.

use std::time::{Duration, SystemTime};

/// The wait a `Retry-After` value asks for, counted from `now`: a number
/// of seconds (`delay-seconds`, digits only), or an HTTP date in any of
/// the three forms RFC 9110 section 5.6.7 has recipients accept
/// (IMF-fixdate, RFC 850, asctime). A date in the past asks for no wait.
/// `None` when the value is neither.
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let v = value.trim_matches([' ', '\t']);
    if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
        // A huge number is a long wait, not an error.
        return Some(Duration::from_secs(v.parse().unwrap_or(u64::MAX)));
    }
    let at = httpdate::parse_http_date(v).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    const EPOCH_1994: u64 = 784111777; // Sun, 06 Nov 1994 08:49:37 GMT

    #[test]
    fn seconds_a_date_a_minute_on_and_words() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(EPOCH_1994);
        let p = |v| parse_retry_after(v, now);
        assert_eq!(p("120"), Some(Duration::from_secs(120)));
        assert_eq!(
            p("Sun, 06 Nov 1994 08:50:37 GMT"),
            Some(Duration::from_secs(60))
        );
        assert_eq!(p("soon"), None);
    }

    fn at(secs: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(secs)
    }

    #[test]
    fn seconds() {
        let now = at(EPOCH_1994);
        assert_eq!(parse_retry_after("0", now), Some(Duration::ZERO));
        assert_eq!(
            parse_retry_after(" 5 ", now),
            Some(Duration::from_secs(5))
        );
        assert_eq!(
            parse_retry_after("99999999999999999999999", now),
            Some(Duration::from_secs(u64::MAX))
        );
        for bad in ["", "-1", "1.5", "+3", "3s", "0x10"] {
            assert_eq!(parse_retry_after(bad, now), None, "{bad:?}");
        }
    }

    #[test]
    fn the_three_date_forms() {
        let now = at(EPOCH_1994 - 10);
        for date in [
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
        ] {
            assert_eq!(
                parse_retry_after(date, now),
                Some(Duration::from_secs(10)),
                "{date}"
            );
        }
    }

    proptest::proptest! {
        /// Any text: no panic; digits are that many seconds; a date
        /// formatted as IMF-fixdate is read back to the second.
        #[test]
        fn any_value(v in "\\PC{0,40}", secs in 0u64..4_000_000_000, ahead in 0u64..100_000) {
            let now = at(secs);
            let got = parse_retry_after(&v, now);
            let t = v.trim_matches([' ', '\t']);
            if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
                proptest::prop_assert_eq!(got, Some(Duration::from_secs(t.parse().unwrap_or(u64::MAX))));
            }
            let date = httpdate::fmt_http_date(at(secs + ahead));
            proptest::prop_assert_eq!(
                parse_retry_after(&date, now),
                Some(Duration::from_secs(ahead))
            );
        }
    }

    #[test]
    fn a_past_date_is_no_wait() {
        let now = at(EPOCH_1994 + 3600);
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 25:49:37 GMT", now),
            None
        );
    }
}
