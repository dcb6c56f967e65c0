//! Why `pair` or `pair --all` made no round ([`PairError`]), and a round refused for want
//! of a legal pairing as the arbiter reads it ([`Refused`]: with the `--relax` list that
//! was not enough and the round-1 draw's seed recorded for the next `pair`).

use crate::i18n::{Localize, bi, display_english};
use crate::model::Relax;
use crate::pairing::{PairingError, TurnError, Waiting};
use crate::rulebook::Lang;
use crate::store::{StoreError, TxError};
use crate::teams::TeamError;

/// Why `pair` (or `pair --all`) made no round. Nothing was stored but, for a refused
/// round-1 draw, its seed ([`Refused::recorded`]).
#[derive(Debug, thiserror::Error)]
pub enum PairError {
    /// The request was refused before pairing: a seed after round 1, a pool too small,
    /// cancelled or merged.
    #[error(transparent)]
    Turn(#[from] TurnError),
    /// The pairing failed for a reason other than the lack of a legal pairing.
    #[error(transparent)]
    Pairing(#[from] PairingError),
    /// No legal pairing exists for the round.
    #[error(transparent)]
    Refused(Box<Refused>),
    /// A team competition's round could not be paired or shown.
    #[error(transparent)]
    Team(Box<TeamError>),
    /// `pair --all`: no pool is ready for its next round (each says why).
    #[error(transparent)]
    NothingReady(NothingReady),
    /// Reading, locking or writing the event failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The round's workbook (`--format xlsx`) could not be made; the round was not stored.
    #[error(transparent)]
    Workbook(crate::report::xlsx::WorkbookError),
}

impl Localize for PairError {
    fn localize(&self, lang: Lang) -> String {
        match self {
            PairError::Turn(e) => e.localize(lang),
            PairError::Pairing(e) => e.localize(lang),
            PairError::Refused(e) => e.localize(lang),
            PairError::Team(e) => e.localize(lang),
            PairError::NothingReady(e) => e.localize(lang),
            PairError::Store(e) => e.localize(lang),
            // The binary says it with what to do instead (`xlsx_error`); this is the
            // library's own wording, in the language asked for.
            PairError::Workbook(e) => {
                let e = e.localize(lang);
                bi!(
                    lang,
                    zh("无法生成 Excel 工作簿：{e}"),
                    en("cannot build the Excel workbook: {e}")
                )
            }
        }
    }
}

/// A failed transaction of `pair`: the store's failure, or the refusal `pair` made inside it.
impl From<TxError<PairError>> for PairError {
    fn from(e: TxError<PairError>) -> Self {
        match e {
            TxError::Store(e) => PairError::Store(e),
            TxError::Command(e) => e,
        }
    }
}

/// A round no legal pairing exists for, with what the arbiter needs next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The refusal, naming who blocks the round.
    pub error: PairingError,
    /// The `--relax` list given for this round (in place of the rulebook's), which was
    /// not enough.
    pub relax: Option<Vec<Relax>>,
    /// The round-1 draw's seed, drawn now and recorded as the pool's, so that the next
    /// `pair` (with `--relax`, say) makes the same draw instead of drawing again.
    pub recorded: Option<u64>,
}

display_english!(Refused, NothingReady);

impl std::error::Error for Refused {}

impl Localize for Refused {
    fn localize(&self, lang: Lang) -> String {
        let m = self.error.localize(lang);
        let mut m = match &self.relax {
            Some(given) => {
                let given = crate::rulebook::relax_list(given);
                bi!(
                    lang,
                    zh("`--relax {given}`（本轮代替规程的 pairing.relax）仍不足以编排：{m}"),
                    en(
                        "`--relax {given}` (in place of the rulebook's pairing.relax this round) is not enough: {m}"
                    )
                )
            }
            None => m,
        };
        if let Some(s) = self.recorded {
            m.push_str(&bi!(
                lang,
                zh("\n本次第 1 轮抽签的种子 {s} 已记录：之后的 `qiwang pair` 按同一抽签编排"),
                en("\nthis round-1 draw's seed {s} is recorded: the next `qiwang pair` makes the same draw")
            ));
        }
        m
    }
}

/// `pair --all` found no pool ready for its next round and none refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NothingReady {
    /// Every pool, with why it waits.
    pub waiting: Vec<Waiting>,
}

impl std::error::Error for NothingReady {}

impl Localize for NothingReady {
    fn localize(&self, lang: Lang) -> String {
        let list = self
            .waiting
            .iter()
            .map(|w| format!("  {}", w.localize(lang)))
            .collect::<Vec<_>>()
            .join("\n");
        bi!(
            lang,
            zh("没有可以编排下一轮的组别：\n{list}"),
            en("no group is ready for its next round:\n{list}")
        )
    }
}
