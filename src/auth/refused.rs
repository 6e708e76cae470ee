//! Client addresses over a limit of their own, remembered in this process
//! until the time PostgreSQL's shared count (`db::throttle`) named: a storm
//! of requests from one address is answered `429` without a database round
//! trip once the shared count has refused that address.
//!
//! Rules:
//! - An address is held only when the shared count refused the
//!   *address's own* key (not an account's, nor an account-and-address
//!   pair's), and only until the time that key named. Until then every
//!   process would refuse the address too: a refused use writes nothing, so
//!   only a use given back can make room, and every use given back from
//!   this process forgets the address here ([`RefusedAddresses::forget`]).
//! - The shared count stays the authority: a process that holds nothing
//!   for an address asks it, as before; nothing here ever admits a use.
//! - At most [`RefusedAddresses::MOST`] addresses are held, however many
//!   an attacker rotates through (a bounded cache, `quick_cache`): when it
//!   is full a new address evicts a cold one, which is then refused by the
//!   shared count again, as before, and held again.
//! - An address whose time has passed is forgotten when next asked about.

use std::net::IpAddr;

use chrono::{DateTime, Utc};
use quick_cache::sync::{Cache, EntryAction, EntryResult};

/// Addresses refused by one limit of their own, each until when.
pub struct RefusedAddresses {
    until: Cache<IpAddr, DateTime<Utc>>,
}

impl std::fmt::Debug for RefusedAddresses {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RefusedAddresses")
            .field("held", &self.until.len())
            .finish()
    }
}

impl Default for RefusedAddresses {
    fn default() -> Self {
        Self::holding(Self::MOST)
    }
}

impl RefusedAddresses {
    /// The most addresses held at once by default (a few megabytes).
    pub const MOST: usize = 100_000;

    /// Holding at most `most` addresses at once.
    #[must_use]
    pub fn holding(most: usize) -> Self {
        RefusedAddresses {
            until: Cache::new(most.max(1)),
        }
    }

    /// Until when uses from `address` are refused, if they are at `now`.
    #[must_use]
    pub fn refused_until(&self, address: IpAddr, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let until = self.until.get(&address)?;
        if until > now {
            return Some(until);
        }
        self.until.remove_if(&address, |held| *held <= now);
        None
    }

    /// Remembers that the shared count refused `address` until `until`
    /// (the later of two times, when already held).
    pub fn refuse(&self, address: IpAddr, until: DateTime<Utc>, now: DateTime<Utc>) {
        if until <= now {
            return;
        }
        let held = self.until.entry(&address, None, |_, held| {
            *held = (*held).max(until);
            EntryAction::Retain(())
        });
        if let EntryResult::Vacant(place) = held {
            // Err only when a concurrent `forget` took the place: then
            // nothing is held, which is always safe.
            let _ = place.insert(until);
        }
    }

    /// Forgets `address` (a use from it was given back, so the shared
    /// count may admit one again before the time it named).
    pub fn forget(&self, address: IpAddr) {
        self.until.remove(&address);
    }

    /// How many addresses are held.
    #[must_use]
    pub fn len(&self) -> usize {
        self.until.len()
    }

    /// Whether no address is held.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.until.is_empty()
    }

    /// The bytes the holding takes (its table and entries: the addresses
    /// and times own nothing beyond them).
    #[must_use]
    pub fn memory_used(&self) -> usize {
        self.until.memory_used().total()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_900_000_000 + secs, 0).unwrap()
    }

    fn address(n: u32) -> IpAddr {
        IpAddr::V4(std::net::Ipv4Addr::from(n))
    }

    #[test]
    fn given_a_refused_address_when_asked_before_its_time_then_it_is_refused_until_then() {
        let refused = RefusedAddresses::default();
        refused.refuse(address(1), at(900), at(0));
        assert_eq!(refused.refused_until(address(1), at(10)), Some(at(900)));
        assert_eq!(refused.refused_until(address(2), at(10)), None);
    }

    #[test]
    fn given_a_refused_address_when_its_time_has_passed_then_it_is_admitted_and_forgotten() {
        let refused = RefusedAddresses::default();
        refused.refuse(address(1), at(900), at(0));
        assert_eq!(refused.refused_until(address(1), at(900)), None);
        assert!(refused.is_empty());
    }

    #[test]
    fn given_two_refusals_of_one_address_then_the_later_time_holds() {
        let refused = RefusedAddresses::default();
        refused.refuse(address(1), at(900), at(0));
        refused.refuse(address(1), at(500), at(1));
        assert_eq!(refused.refused_until(address(1), at(600)), Some(at(900)));
        refused.refuse(address(1), at(1200), at(2));
        assert_eq!(refused.refused_until(address(1), at(1000)), Some(at(1200)));
    }

    #[test]
    fn given_a_time_already_past_when_refused_then_nothing_is_held() {
        let refused = RefusedAddresses::default();
        refused.refuse(address(1), at(5), at(5));
        assert!(refused.is_empty());
    }

    #[test]
    fn given_a_use_given_back_when_forgotten_then_the_shared_count_is_asked_again() {
        let refused = RefusedAddresses::default();
        refused.refuse(address(1), at(900), at(0));
        refused.forget(address(1));
        assert_eq!(refused.refused_until(address(1), at(10)), None);
    }

    #[test]
    fn given_an_attacker_rotating_addresses_then_the_holding_stays_bounded() {
        // Given room for 1,000 addresses, when fifty times as many are
        // refused …
        let refused = RefusedAddresses::holding(1_000);
        for n in 0..50_000 {
            refused.refuse(address(n), at(900), at(0));
        }
        // … then at most 1,000 are held, in at most 128 bytes each (about
        // 93 with the table's room: 8.5 MB for the default 100,000), and
        // the newest is among them.
        assert!(refused.len() <= 1_000, "{} held", refused.len());
        let bytes = refused.memory_used();
        assert!(bytes <= 1_000 * 128, "{bytes} bytes");
        assert_eq!(refused.refused_until(address(49_999), at(1)), Some(at(900)));
    }
}
