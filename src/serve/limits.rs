//! Limits per client address, so that one device on the hall network looping requests
//! (a phone stuck reloading, a script) cannot starve the others.
//!
//! Requests: a token bucket per client address, `rate` requests a second sustained with
//! bursts of up to [`BURST_SECONDS`]` × rate` (a page, its script and a few searches at
//! once are far below it). Past it a request is answered 429 with `Retry-After: 1`
//! before any page is looked at, which costs the server next to nothing. Live
//! connections (`/events`): at most `live` open per client address, besides the overall
//! cap of `Options::max_live`.
//!
//! Both are options of `qiwang serve` (`--client-rate`, `--client-live`; 0 turns one
//! off). They count by the address the connection comes from: behind a router that
//! translates addresses (NAT) every device shares one address, so the hall network should
//! be the laptop's own, as docs/serve.md says. The table of addresses is bounded
//! ([`MAX_CLIENTS`]): idle ones are dropped, and while it is full of busy ones a new
//! address is refused, so devices already served keep being served.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// A client's burst: this many seconds of its sustained rate.
pub const BURST_SECONDS: u32 = 5;
/// Requests a second per client address unless `--client-rate` says otherwise.
pub const DEFAULT_RATE: u32 = 10;
/// Live connections per client address unless `--client-live` says otherwise.
pub const DEFAULT_LIVE: usize = 6;
/// Client addresses tracked at most.
pub const MAX_CLIENTS: usize = 65_536;

/// One client address's bucket and open live connections.
#[derive(Debug, Clone, Copy)]
struct Client {
    tokens: f64,
    at: Instant,
    live: usize,
}

/// The per-client limits of one server.
#[derive(Debug)]
pub struct Limits {
    rate: u32,
    live: usize,
    clients: Mutex<HashMap<IpAddr, Client>>,
}

impl Limits {
    /// `rate` requests a second and `live` live connections per client address (0: no
    /// limit).
    pub fn new(rate: u32, live: usize) -> Limits {
        Limits {
            rate,
            live,
            clients: Mutex::new(HashMap::new()),
        }
    }

    fn burst(&self) -> f64 {
        f64::from(self.rate) * f64::from(BURST_SECONDS)
    }

    /// Runs `f` on the client's entry (made, with a full bucket, if new); `None` when the
    /// table is full of busy clients and `ip` is not one of them.
    fn with_client<T>(
        &self,
        ip: IpAddr,
        now: Instant,
        f: impl FnOnce(&mut Client) -> T,
    ) -> Option<T> {
        let mut clients = self
            .clients
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !clients.contains_key(&ip) && clients.len() >= MAX_CLIENTS {
            let (rate, burst) = (f64::from(self.rate), self.burst());
            // Idle: no live connection and a bucket that has filled up again.
            clients.retain(|_, c| {
                c.live > 0 || c.tokens + now.duration_since(c.at).as_secs_f64() * rate < burst
            });
            if clients.len() >= MAX_CLIENTS {
                return None;
            }
        }
        let client = clients.entry(ip).or_insert(Client {
            tokens: self.burst(),
            at: now,
            live: 0,
        });
        Some(f(client))
    }

    /// Whether a request from `ip` may be answered now (and counts it).
    pub fn allow(&self, ip: IpAddr) -> bool {
        self.allow_at(ip, Instant::now())
    }

    fn allow_at(&self, ip: IpAddr, now: Instant) -> bool {
        if self.rate == 0 {
            return true;
        }
        let (rate, burst) = (f64::from(self.rate), self.burst());
        self.with_client(ip, now, |c| {
            let elapsed = now.saturating_duration_since(c.at).as_secs_f64();
            c.tokens = (c.tokens + elapsed * rate).min(burst);
            c.at = now;
            if c.tokens >= 1.0 {
                c.tokens -= 1.0;
                true
            } else {
                false
            }
        })
        .unwrap_or(false)
    }

    /// Counts a live connection of `ip` opening; `false` (and nothing counted) when the
    /// client has its limit open already.
    pub fn open_live(&self, ip: IpAddr) -> bool {
        if self.live == 0 {
            return true;
        }
        self.with_client(ip, Instant::now(), |c| {
            if c.live >= self.live {
                false
            } else {
                c.live += 1;
                true
            }
        })
        .unwrap_or(false)
    }

    /// Counts a live connection of `ip` closed (one that [`Limits::open_live`] let open).
    pub fn close_live(&self, ip: IpAddr) {
        if self.live == 0 {
            return;
        }
        let mut clients = self
            .clients
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(c) = clients.get_mut(&ip) {
            c.live = c.live.saturating_sub(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_client_gets_its_burst_then_its_rate_and_others_are_not_touched() {
        let limits = Limits::new(2, 0);
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let t0 = Instant::now();
        let burst = (0..100).filter(|_| limits.allow_at(a, t0)).count();
        assert_eq!(burst, 10);
        assert!(limits.allow_at(b, t0), "another client is served");
        // Half a second later one more request (2 a second), then none.
        let later = t0 + Duration::from_millis(500);
        assert!(limits.allow_at(a, later));
        assert!(!limits.allow_at(a, later));
        // After a long pause, a full burst again, never more.
        let much_later = t0 + Duration::from_secs(600);
        assert_eq!(
            (0..100).filter(|_| limits.allow_at(a, much_later)).count(),
            10
        );
        // No limit: everything.
        let off = Limits::new(0, 0);
        assert!((0..1000).all(|_| off.allow_at(a, t0)));
    }

    #[test]
    fn live_connections_are_capped_per_client() {
        let limits = Limits::new(0, 2);
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "::1".parse().unwrap());
        assert!(limits.open_live(a) && limits.open_live(a));
        assert!(!limits.open_live(a));
        assert!(limits.open_live(b));
        limits.close_live(a);
        assert!(limits.open_live(a));
        assert!(!limits.open_live(a));
    }

    #[test]
    fn the_table_of_clients_stays_bounded() {
        let limits = Limits::new(1, 1);
        let t0 = Instant::now();
        // Every tracked client busy (a live connection open).
        for i in 0..MAX_CLIENTS {
            let ip = IpAddr::V6(std::net::Ipv6Addr::from(u128::try_from(i).unwrap() + 1));
            assert!(limits.with_client(ip, t0, |c| c.live = 1).is_some());
        }
        let new: IpAddr = "10.9.9.9".parse().unwrap();
        assert!(
            !limits.allow_at(new, t0),
            "refused while the table is full of busy clients"
        );
        // Once they are idle, they are dropped and the new client is served.
        for i in 0..MAX_CLIENTS {
            let ip = IpAddr::V6(std::net::Ipv6Addr::from(u128::try_from(i).unwrap() + 1));
            limits.close_live(ip);
        }
        assert!(limits.allow_at(new, t0 + Duration::from_secs(60)));
        assert_eq!(limits.clients.lock().unwrap().len(), 1);
    }
}
