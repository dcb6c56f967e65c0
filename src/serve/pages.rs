//! The served pages, kept current: the whole public site rendered in memory from the
//! state, made again on a thread of its own whenever `qiwang.json` is replaced (a change
//! by the CLI or by an arbiter's page), and handed to the request handlers and the live
//! connections through a `watch` channel. The same thread works out, whenever
//! `audit.log` grows, what `undo` would revert ([`NextUndo`]), so that no arbiter's page
//! reads the audit trail itself: request handlers never touch the event's files.

use super::Options;
use super::problem::Problem;
use crate::i18n::{Lang, Localize};
use crate::model::Event;
use crate::rulebook::Rulebook;
// A file's stamp tells one version from the next: the state file, replaced by a rename, is
// another file; `audit.log`, appended to, has a new length and modification time.
use crate::store::{AuditEntry, Stamp, Store, StoreError, file_stamp as stamp};
use crate::views::public::{self, FindEntry};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// One rendering of the event.
#[derive(Clone)]
pub struct Snapshot {
    /// Counts the renderings: what the live connections announce.
    pub version: u64,
    /// Every page of the exported site, by its path (`index.html`, `open/round-3.html`).
    pub pages: Arc<HashMap<String, axum::body::Bytes>>,
    /// The hall screen's slides.
    pub slides: Arc<Vec<axum::body::Bytes>>,
    /// The find page's players, for a search the server answers.
    pub entries: Arc<Vec<FindEntry>>,
    /// What `undo` would revert, as of the audit trail read with this rendering.
    pub undo: NextUndo,
    /// The event and its rulebook as read (the arbiter's pages read them).
    pub state: Option<Arc<(Event, Rulebook)>>,
    /// The pages' language.
    pub lang: Lang,
    /// Why the state could not be read (the pages before it stay served).
    pub problem: Option<String>,
}

/// What `undo` would revert now, worked out once per change of `audit.log` (the arbiter's
/// pages offer it without reading the trail on every page load).
#[derive(Clone)]
pub struct NextUndo {
    /// The length of `audit.log` before it was read. The log only grows, so a snapshot
    /// whose mark is at least the length a write left shows that write ([`Pages::showing`]).
    pub mark: u64,
    /// The newest change in effect; `Ok(None)`: nothing to undo; `Err`: the store's own
    /// error (which file, what is wrong), for a trail `undo` cannot read and so refuses,
    /// as the pages show it ([`Problem`]).
    pub next: Result<Option<AuditEntry>, Arc<Problem>>,
}

impl NextUndo {
    /// Read from the store now; `mark` is the length of `audit.log` stamped before. An
    /// error is noted in full through `note` (in `lang`).
    fn read(store: &Store, mark: u64, note: fn(&str), lang: Lang) -> NextUndo {
        let next = match store.next_undo() {
            Ok(entry) => Ok(Some(entry)),
            Err(StoreError::NothingToUndo) => Ok(None),
            Err(e) => Err(Arc::new(Problem::of(&e, store.dir(), note, lang))),
        };
        NextUndo { mark, next }
    }
}

/// The current [`Snapshot`] and the thread that keeps it so.
pub struct Pages {
    receiver: watch::Receiver<Arc<Snapshot>>,
}

/// The [`Stamp`]s of the state file and of the audit trail, taken before either is read.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamps {
    state: Option<Stamp>,
    audit: Option<Stamp>,
}

impl Stamps {
    fn of(store: &Store) -> Stamps {
        Stamps {
            state: stamp(&store.state_path()),
            audit: stamp(&store.audit_path()),
        }
    }

    /// The audit trail's length, for [`NextUndo::mark`].
    fn mark(&self) -> u64 {
        length_of(self.audit.as_ref())
    }
}

/// A stamped file's length, 0 when it is missing: the one measure the watcher's mark and
/// a write's [`audit_mark`] compare.
fn length_of(stamp: Option<&Stamp>) -> u64 {
    stamp.map_or(0, |s| s.len)
}

/// The length of `audit.log` now (blocking: from a write's own blocking task), what the
/// write's answer then waits for with [`Pages::showing`].
pub fn audit_mark(store: &Store) -> u64 {
    length_of(stamp(&store.audit_path()).as_ref())
}

impl Pages {
    /// Renders the event once and starts the thread that renders it again on change.
    pub fn start(store: Store, options: &Options) -> std::io::Result<Pages> {
        let lang = options.lang;
        let seconds = options.screen_seconds;
        let (poll, note) = (options.poll, options.note);
        let seen = Stamps::of(&store);
        let first = render(&store, (lang, note), seconds, 1, None, seen.mark());
        let (sender, receiver) = watch::channel(Arc::new(first));
        std::thread::Builder::new()
            .name("qiwang-watch".into())
            .spawn(move || watch_state(&store, &sender, (lang, seconds, poll, note), seen))?;
        Ok(Pages { receiver })
    }

    /// The pages as they are now.
    pub fn current(&self) -> Arc<Snapshot> {
        self.receiver.borrow().clone()
    }

    /// Waits (at most `limit`) until the pages show the event as of `audit.log` holding
    /// `mark` bytes ([`audit_mark`] after an arbiter's write), so that the next page the
    /// arbiter opens, and the undo it offers, already show that write.
    pub async fn showing(&self, mark: u64, limit: Duration) {
        let mut receiver = self.receiver.clone();
        let _ = tokio::time::timeout(limit, receiver.wait_for(|s| s.undo.mark >= mark)).await;
    }

    /// A receiver told of every new rendering (for a live connection).
    pub fn subscribe(&self) -> watch::Receiver<Arc<Snapshot>> {
        self.receiver.clone()
    }
}

/// The watching thread: renders again whenever the state file's [`Stamp`] changes, and
/// works out [`NextUndo`] again (the pages kept, the version the same, so an open page
/// that hears of it does not fetch itself again) when only `audit.log` changed; ends
/// when nobody listens any more.
/// `seen`: the stamps the first rendering was made after.
fn watch_state(
    store: &Store,
    sender: &watch::Sender<Arc<Snapshot>>,
    (lang, seconds, poll, note): (Option<Lang>, u32, Duration, fn(&str)),
    mut seen: Stamps,
) {
    let mut version = 1;
    loop {
        std::thread::sleep(poll);
        if sender.is_closed() {
            return;
        }
        let now = Stamps::of(store);
        if now == seen {
            continue;
        }
        let previous = sender.borrow().clone();
        let next = if now.state == seen.state {
            next_undo(store, now.mark(), &previous, note)
        } else {
            version += 1;
            // A panic here is a bug, reported by the hook as it happens: the pages
            // before stay served, with the problem noted, and the thread goes on.
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                super::internal::test_panic("render");
                render(
                    store,
                    (lang, note),
                    seconds,
                    version,
                    Some(&previous),
                    now.mark(),
                )
            }))
            .unwrap_or_else(|_| Snapshot {
                version,
                problem: Some(super::internal::RENDER_FAILED.to_string()),
                // The undo offered, and its mark, still follow the audit trail: a write
                // waiting for the pages to show it ([`Pages::showing`]) is not kept
                // waiting while rendering fails.
                ..next_undo(store, now.mark(), &previous, note)
            })
        };
        seen = now;
        sender.send_replace(Arc::new(next));
    }
}

/// `previous` with what `undo` would revert now; `previous` as it was when reading the
/// audit trail panicked (a bug, reported by the hook as it happens).
fn next_undo(store: &Store, mark: u64, previous: &Snapshot, note: fn(&str)) -> Snapshot {
    let undo = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        NextUndo::read(store, mark, note, previous.lang)
    }))
    .unwrap_or_else(|_| previous.undo.clone());
    Snapshot {
        undo,
        ..previous.clone()
    }
}

/// The event rendered as version `version`, with what `undo` would revert (`mark`: the
/// audit trail's length stamped before the state was read). A state that cannot be read
/// keeps the `previous` pages, with the problem noted (a page that cannot be served says
/// so, naming the file relative to the event; `note`, the server's standard error, gets
/// it in full).
fn render(
    store: &Store,
    (lang, note): (Option<Lang>, fn(&str)),
    seconds: u32,
    version: u64,
    previous: Option<&Snapshot>,
    mark: u64,
) -> Snapshot {
    let loaded = store
        .load()
        .map_err(|e| {
            Problem::of(&e, store.dir(), note, lang.unwrap_or_default()).localize(Lang::Zh)
        })
        .and_then(|event| {
            Rulebook::from_toml(&event.rules_toml, "qiwang.json `rules_toml`")
                .map(|rules| (event, rules))
                .map_err(|e| e.localize(Lang::Zh))
        });
    match loaded {
        Ok((mut event, rules)) => {
            // The pages are public, and the arbiter's show the same names.
            crate::views::mask_names_and_units(&mut event);
            let lang = lang.unwrap_or(rules.event.language);
            let pages = crate::views::site(&event, &rules, None, lang)
                .into_iter()
                .map(|(path, text)| (path, axum::body::Bytes::from(text)))
                .collect();
            let slides = public::screen_slides(&event, &rules, lang, seconds)
                .into_iter()
                .map(axum::body::Bytes::from)
                .collect();
            let entries = public::find_entries(&event, &rules, None);
            Snapshot {
                version,
                pages: Arc::new(pages),
                slides: Arc::new(slides),
                entries: Arc::new(entries),
                undo: NextUndo::read(store, mark, note, lang),
                state: Some(Arc::new((event, rules))),
                lang,
                problem: None,
            }
        }
        Err(problem) => match previous {
            Some(p) => Snapshot {
                version,
                undo: NextUndo::read(store, mark, note, p.lang),
                problem: Some(problem),
                ..p.clone()
            },
            None => Snapshot {
                version,
                pages: Arc::default(),
                slides: Arc::default(),
                entries: Arc::default(),
                undo: NextUndo::read(store, mark, note, lang.unwrap_or_default()),
                state: None,
                lang: lang.unwrap_or_default(),
                problem: Some(problem),
            },
        },
    }
}
