//! The served pages, kept current: the whole public site rendered in memory from the
//! state, made again on a thread of its own whenever `qiwang.json` is replaced (a change
//! by the CLI or by an arbiter's page), and handed to the request handlers and the live
//! connections through a `watch` channel.

use super::Options;
use crate::i18n::{Lang, Localize};
use crate::model::Event;
use crate::rulebook::Rulebook;
use crate::store::Store;
use crate::views::public::{self, FindEntry};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime};
use tokio::sync::watch;

/// One rendering of the event.
pub struct Snapshot {
    /// Counts the renderings: what the live connections announce.
    pub version: u64,
    /// Every page of the exported site, by its path (`index.html`, `open/round-3.html`).
    pub pages: HashMap<String, axum::body::Bytes>,
    /// The hall screen's slides.
    pub slides: Vec<axum::body::Bytes>,
    /// The find page's players, for a search the server answers.
    pub entries: Vec<FindEntry>,
    /// The event and its rulebook as read (the arbiter's pages read them).
    pub state: Option<Arc<(Event, Rulebook)>>,
    /// The pages' language.
    pub lang: Lang,
    /// Why the state could not be read (the pages before it stay served).
    pub problem: Option<String>,
}

/// The current [`Snapshot`] and the thread that keeps it so.
pub struct Pages {
    receiver: watch::Receiver<Arc<Snapshot>>,
}

/// What tells one version of the state file from another: replaced by a rename, it has a
/// new modification time or length (and, on Unix, a new inode).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
    inode: u64,
}

fn stamp(store: &Store) -> Option<Stamp> {
    let meta = std::fs::metadata(store.state_path()).ok()?;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&meta);
    #[cfg(not(unix))]
    let inode = 0;
    Some(Stamp {
        modified: meta.modified().ok(),
        len: meta.len(),
        inode,
    })
}

impl Pages {
    /// Renders the event once and starts the thread that renders it again on change.
    pub fn start(store: Store, options: &Options) -> std::io::Result<Pages> {
        let lang = options.lang;
        let seconds = options.screen_seconds;
        let poll = options.poll;
        let first = render(&store, lang, seconds, 1, None);
        let (sender, receiver) = watch::channel(Arc::new(first));
        std::thread::Builder::new()
            .name("qiwang-watch".into())
            .spawn(move || watch_state(&store, &sender, lang, seconds, poll))?;
        Ok(Pages { receiver })
    }

    /// The pages as they are now.
    pub fn current(&self) -> Arc<Snapshot> {
        self.receiver.borrow().clone()
    }

    /// Waits (at most `limit`) until the pages are newer than `version`: after an arbiter's
    /// write, so that the next page the arbiter opens already shows it.
    pub async fn newer_than(&self, version: u64, limit: Duration) {
        let mut receiver = self.receiver.clone();
        let _ = tokio::time::timeout(limit, receiver.wait_for(|s| s.version > version)).await;
    }

    /// A receiver told of every new rendering (for a live connection).
    pub fn subscribe(&self) -> watch::Receiver<Arc<Snapshot>> {
        self.receiver.clone()
    }
}

/// The watching thread: renders again whenever the state file's [`Stamp`] changes; ends
/// when nobody listens any more.
fn watch_state(
    store: &Store,
    sender: &watch::Sender<Arc<Snapshot>>,
    lang: Option<Lang>,
    seconds: u32,
    poll: Duration,
) {
    let mut seen = stamp(store);
    let mut version = 1;
    loop {
        std::thread::sleep(poll);
        if sender.is_closed() {
            return;
        }
        let now = stamp(store);
        if now == seen {
            continue;
        }
        seen = now;
        version += 1;
        let previous = sender.borrow().clone();
        let next = render(store, lang, seconds, version, Some(&previous));
        sender.send_replace(Arc::new(next));
    }
}

/// The event rendered as version `version`. A state that cannot be read keeps the
/// `previous` pages, with the problem noted (a page that cannot be served says so).
fn render(
    store: &Store,
    lang: Option<Lang>,
    seconds: u32,
    version: u64,
    previous: Option<&Snapshot>,
) -> Snapshot {
    let loaded = store
        .load()
        .map_err(|e| e.localize(Lang::Zh))
        .and_then(|event| {
            Rulebook::from_toml(&event.rules_toml, "qiwang.json `rules_toml`")
                .map(|rules| (event, rules))
                .map_err(|e| e.localize(Lang::Zh))
        });
    match loaded {
        Ok((event, rules)) => {
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
                pages,
                slides,
                entries,
                state: Some(Arc::new((event, rules))),
                lang,
                problem: None,
            }
        }
        Err(problem) => match previous {
            Some(p) => Snapshot {
                version,
                pages: p.pages.clone(),
                slides: p.slides.clone(),
                entries: p.entries.clone(),
                state: p.state.clone(),
                lang: p.lang,
                problem: Some(problem),
            },
            None => Snapshot {
                version,
                pages: HashMap::new(),
                slides: Vec::new(),
                entries: Vec::new(),
                state: None,
                lang: lang.unwrap_or_default(),
                problem: Some(problem),
            },
        },
    }
}
