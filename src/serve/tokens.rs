//! Who may enter results through the arbiter's pages: one-time login tokens, the
//! sessions they open, and the limit on login attempts.
//!
//! A token is 80 random bits from the operating system, written for people as 16
//! characters of an alphabet without look-alikes (`QW7K-…`). Only its SHA-256 is kept, in
//! `<event>/serve-tokens.json` (owner-only, replaced by an atomic rename), with an id
//! (`A1`, `A2`, …), the tables it may enter (all, or a range) and whether it was used or
//! revoked. A token opens one session, once; comparing is in constant time. Revoking
//! (`qiwang serve --revoke ID|all`, or deleting its entry from the file) also ends the
//! sessions it opened: the file is read again for every arbiter request.
//!
//! Sessions live in the server's memory: a random id in an `HttpOnly; SameSite=Strict`
//! cookie, and a random CSRF token every form carries back. Failed logins are limited per
//! client address and overall.

use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::Digest;
use std::collections::HashMap;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The token file's name in the event directory.
pub const TOKEN_FILE: &str = "serve-tokens.json";

/// The characters of a token: no 0/O, 1/I/L, so a token copied by hand stays right.
const ALPHABET: &[u8; 31] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/// Which tables a token may enter results for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tables {
    /// The first table (1-based).
    pub from: u32,
    /// The last table.
    pub to: u32,
}

impl Tables {
    /// `all` → `None`; `3-10` or `7` → that range.
    pub fn parse(text: &str) -> Result<Option<Tables>, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("all") || text == "全部" {
            return Ok(None);
        }
        let (a, b) = text.split_once(['-', '–', '~']).unwrap_or((text, text));
        match (a.trim().parse::<u32>(), b.trim().parse::<u32>()) {
            (Ok(from), Ok(to)) if from >= 1 && from <= to => Ok(Some(Tables { from, to })),
            _ => Err(text.to_string()),
        }
    }

    /// Whether table `t` is in the range.
    pub fn contains(self, t: u32) -> bool {
        (self.from..=self.to).contains(&t)
    }
}

/// One token as the file keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenEntry {
    /// Named in the audit log and by `--revoke`.
    pub id: String,
    /// SHA-256 of the token, hex.
    pub hash: String,
    /// `None`: every table.
    #[serde(default)]
    pub tables: Option<Tables>,
    /// A session was opened with it (it opens no other).
    #[serde(default)]
    pub used: bool,
    /// Revoked: it opens nothing, and its session ends.
    #[serde(default)]
    pub revoked: bool,
}

/// The token file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenFile {
    /// Every token made for the event, in order.
    pub tokens: Vec<TokenEntry>,
}

/// The path of the token file of the event in `dir`.
pub fn token_path(dir: &Path) -> PathBuf {
    dir.join(TOKEN_FILE)
}

/// Reads the token file (none yet: no tokens). A file that does not parse, or a symbolic
/// link in its place, counts as no tokens: nobody can log in until it is mended or
/// replaced by `--token`.
pub fn read(dir: &Path) -> TokenFile {
    crate::store::read_private_file(&token_path(dir))
        .ok()
        .flatten()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

/// Writes the token file as the store writes the event's own files: owner-only, whole or
/// not at all, never through a symbolic link.
pub fn write(dir: &Path, file: &TokenFile) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(file).map_err(std::io::Error::other)? + "\n";
    crate::store::write_private_file(&token_path(dir), text.as_bytes())
        .map_err(std::io::Error::other)
}

/// SHA-256 of `text`, hex.
fn digest(text: &str) -> String {
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether two byte strings are equal, in time that depends only on their lengths.
pub fn equal_in_constant_time(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// `n` random characters of [`ALPHABET`] from the operating system's generator.
fn random_text(n: usize) -> String {
    let mut out = String::with_capacity(n);
    let mut rng = rand::rngs::OsRng;
    while out.len() < n {
        let mut byte = [0u8; 1];
        rng.fill_bytes(&mut byte);
        // 248 = 8 × 31: no bias towards the first letters.
        if byte[0] < 248 {
            out.push(char::from(ALPHABET[usize::from(byte[0]) % ALPHABET.len()]));
        }
    }
    out
}

/// A new token for `tables`, added to the event's token file: `(id, token)`. The token
/// itself is shown once, here, and kept nowhere.
pub fn issue(dir: &Path, tables: Option<Tables>) -> std::io::Result<(String, String)> {
    let raw = random_text(16);
    let token = format!(
        "{}-{}-{}-{}",
        &raw[..4],
        &raw[4..8],
        &raw[8..12],
        &raw[12..]
    );
    let mut file = read(dir);
    let id = format!("A{}", file.tokens.len() + 1);
    file.tokens.push(TokenEntry {
        id: id.clone(),
        hash: digest(&normalise(&token)),
        tables,
        used: false,
        revoked: false,
    });
    write(dir, &file)?;
    Ok((id, token))
}

/// Revokes the token `id` (or every token for `all`): the ids revoked.
pub fn revoke(dir: &Path, id: &str) -> std::io::Result<Vec<String>> {
    let mut file = read(dir);
    let mut revoked = Vec::new();
    for t in &mut file.tokens {
        if (id.eq_ignore_ascii_case("all") || t.id.eq_ignore_ascii_case(id)) && !t.revoked {
            t.revoked = true;
            revoked.push(t.id.clone());
        }
    }
    if !revoked.is_empty() {
        write(dir, &file)?;
    }
    Ok(revoked)
}

/// A token as typed: upper case, without spaces or dashes.
fn normalise(token: &str) -> String {
    token
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// One open session.
#[derive(Debug, Clone)]
pub struct Session {
    /// The token that opened it.
    pub token: String,
    /// The tables it may enter (`None`: all).
    pub tables: Option<Tables>,
    /// What every form must carry back.
    pub csrf: String,
    /// When it ends.
    expires: Instant,
}

/// How long a session lasts (a playing day).
const SESSION_LENGTH: Duration = Duration::from_secs(16 * 3600);
/// Failed logins allowed per client address in [`WINDOW`].
pub const FAILURES_PER_CLIENT: usize = 5;
/// Failed logins allowed from everyone together in [`WINDOW`].
const FAILURES_OVERALL: usize = 50;
/// The window failed logins are counted in.
const WINDOW: Duration = Duration::from_secs(60);

/// Why a login was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Too many failures lately: try again in a minute.
    TooMany,
    /// No token matches, or it was used or revoked.
    Unknown,
}

/// The sessions and the failed-login counts of one server.
#[derive(Debug, Default)]
pub struct Gate {
    sessions: Mutex<HashMap<String, Session>>,
    failures: Mutex<Vec<(Instant, IpAddr)>>,
    /// Held while the token file is read and written by a login.
    file: Mutex<()>,
}

impl Gate {
    /// Logs in with `token` from `client`: a new session id, or why not.
    pub fn login(&self, dir: &Path, token: &str, client: IpAddr) -> Result<String, Refused> {
        let now = Instant::now();
        {
            let mut failures = self
                .failures
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            failures.retain(|(at, _)| now.duration_since(*at) < WINDOW);
            let mine = failures.iter().filter(|(_, ip)| *ip == client).count();
            if mine >= FAILURES_PER_CLIENT || failures.len() >= FAILURES_OVERALL {
                return Err(Refused::TooMany);
            }
        }
        let _held = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut file = read(dir);
        let hash = digest(&normalise(token));
        // Every entry is compared (no early exit), each in constant time.
        let mut found = None;
        for (i, t) in file.tokens.iter().enumerate() {
            if equal_in_constant_time(t.hash.as_bytes(), hash.as_bytes()) {
                found = Some(i);
            }
        }
        let entry = found
            .map(|i| &mut file.tokens[i])
            .filter(|t| !t.used && !t.revoked);
        let Some(entry) = entry else {
            self.failures
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push((now, client));
            return Err(Refused::Unknown);
        };
        entry.used = true;
        let session = Session {
            token: entry.id.clone(),
            tables: entry.tables,
            csrf: random_text(24),
            expires: now + SESSION_LENGTH,
        };
        write(dir, &file).map_err(|_| Refused::Unknown)?;
        let id = random_text(32);
        self.sessions().insert(id.clone(), session);
        Ok(id)
    }

    /// The session of cookie value `id`, if it is open and its token not revoked.
    ///
    /// The token file is read for every call, so a revoke ends the session at once; it is
    /// read after the sessions are let go, so that concurrent requests do not wait on one
    /// another's file read.
    pub fn session(&self, dir: &Path, id: &str) -> Option<Session> {
        let found = {
            let mut sessions = self.sessions();
            let now = Instant::now();
            sessions.retain(|_, s| s.expires > now);
            // Looked up by comparing every key in constant time, not by hashing the cookie.
            sessions
                .iter()
                .filter(|(k, _)| equal_in_constant_time(k.as_bytes(), id.as_bytes()))
                .map(|(_, s)| s.clone())
                .last()?
        };
        let file = read(dir);
        let live = file
            .tokens
            .iter()
            .any(|t| t.id == found.token && !t.revoked);
        if !live {
            self.sessions().retain(|_, s| s.token != found.token);
            return None;
        }
        Some(found)
    }

    /// The open sessions, locked.
    fn sessions(&self) -> std::sync::MutexGuard<'_, HashMap<String, Session>> {
        self.sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Ends the session `id`.
    pub fn logout(&self, id: &str) {
        self.sessions()
            .retain(|k, _| !equal_in_constant_time(k.as_bytes(), id.as_bytes()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn the_token_file_is_never_written_or_read_through_a_symbolic_link() {
        let dir = tempfile::TempDir::new().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "keep me").unwrap();
        // The token file and every temporary name a write has used, all linked away.
        std::os::unix::fs::symlink(&victim, token_path(dir.path())).unwrap();
        for tmp in [".serve-tokens.json.tmp", "serve-tokens.json.tmp"] {
            std::os::unix::fs::symlink(&victim, dir.path().join(tmp)).unwrap();
        }
        assert!(
            issue(dir.path(), None).is_err() || {
                // A write that went through replaced the link itself, not what it points at.
                !std::fs::symlink_metadata(token_path(dir.path()))
                    .unwrap()
                    .file_type()
                    .is_symlink()
            }
        );
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
        assert_eq!(read(dir.path()).tokens.len(), 0);
    }

    #[test]
    fn a_token_opens_one_session_once_and_revoking_ends_it() {
        let dir = tempfile::TempDir::new().unwrap();
        let gate = Gate::default();
        let client: IpAddr = "127.0.0.1".parse().unwrap();
        let (id, token) = issue(dir.path(), Tables::parse("1-5").unwrap()).unwrap();
        assert_eq!(id, "A1");
        assert_eq!(token.len(), 19);
        let text = std::fs::read_to_string(token_path(dir.path())).unwrap();
        assert!(!text.contains(&token) && !text.contains(&normalise(&token)));
        // Typed in lower case without dashes, it still matches.
        let typed = normalise(&token).to_lowercase();
        let session = gate.login(dir.path(), &typed, client).unwrap();
        let s = gate.session(dir.path(), &session).unwrap();
        assert_eq!(s.token, "A1");
        assert_eq!(s.tables, Some(Tables { from: 1, to: 5 }));
        assert_eq!(
            gate.login(dir.path(), &token, client),
            Err(Refused::Unknown)
        );
        assert_eq!(revoke(dir.path(), "a1").unwrap(), ["A1"]);
        assert!(gate.session(dir.path(), &session).is_none());
    }

    /// A session check reads the token file with the sessions let go: while one check
    /// waits on the file (here a FIFO nobody has written yet), the sessions stay free for
    /// the others; and a revoke still ends a session at the next check, the other
    /// token's session going on.
    #[cfg(unix)]
    #[test]
    fn a_session_check_reads_the_token_file_without_holding_the_sessions() {
        let dir = tempfile::TempDir::new().unwrap();
        let gate = Gate::default();
        let client: IpAddr = "127.0.0.1".parse().unwrap();
        let (_, one) = issue(dir.path(), None).unwrap();
        let (_, two) = issue(dir.path(), None).unwrap();
        let first = gate.login(dir.path(), &one, client).unwrap();
        let second = gate.login(dir.path(), &two, client).unwrap();
        let path = token_path(dir.path());
        let written = std::fs::read(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let (free, checked) = std::thread::scope(|scope| {
            let check = scope.spawn(|| gate.session(dir.path(), &first));
            // Opening the FIFO to write waits until the check has opened it to read: the
            // check is then inside its file read.
            let mut fifo = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
            let free = gate.sessions.try_lock().is_ok();
            std::io::Write::write_all(&mut fifo, &written).unwrap();
            drop(fifo);
            (free, check.join().unwrap())
        });
        assert!(free, "the sessions were held while the token file was read");
        assert_eq!(checked.map(|s| s.token).as_deref(), Some("A1"));
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, &written).unwrap();
        assert_eq!(revoke(dir.path(), "A1").unwrap(), ["A1"]);
        assert!(gate.session(dir.path(), &first).is_none());
        assert_eq!(
            gate.session(dir.path(), &second)
                .map(|s| s.token)
                .as_deref(),
            Some("A2")
        );
    }

    #[test]
    fn failed_logins_are_limited_per_client() {
        let dir = tempfile::TempDir::new().unwrap();
        let gate = Gate::default();
        let (a, b): (IpAddr, IpAddr) = ("127.0.0.1".parse().unwrap(), "127.0.0.2".parse().unwrap());
        let (_, token) = issue(dir.path(), None).unwrap();
        for _ in 0..FAILURES_PER_CLIENT {
            assert_eq!(gate.login(dir.path(), "WRONG", a), Err(Refused::Unknown));
        }
        // Even the right token is refused to that client for now; another client logs in.
        assert_eq!(gate.login(dir.path(), &token, a), Err(Refused::TooMany));
        assert!(gate.login(dir.path(), &token, b).is_ok());
    }

    #[test]
    fn tables_parse_as_all_or_a_range() {
        assert_eq!(Tables::parse("all"), Ok(None));
        assert_eq!(Tables::parse("3-10"), Ok(Some(Tables { from: 3, to: 10 })));
        assert_eq!(Tables::parse("7"), Ok(Some(Tables { from: 7, to: 7 })));
        assert!(Tables::parse("10-3").is_err() && Tables::parse("x").is_err());
        assert!(Tables { from: 3, to: 10 }.contains(10) && !Tables { from: 3, to: 10 }.contains(2));
        assert!(equal_in_constant_time(b"abc", b"abc") && !equal_in_constant_time(b"abc", b"abd"));
        assert!(random_text(40).bytes().all(|b| ALPHABET.contains(&b)));
    }
}
