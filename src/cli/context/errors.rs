//! The one map from every error to its exit code (README "Exit codes"): the library's
//! errors and the command line's own [`Refusal`]s, one exhaustive `match` per type, no
//! wildcard, so a new variant cannot compile until someone decides what it means to a
//! script calling qiwang. Also the ways such an error becomes a [`CliError`]. The only
//! codes decided elsewhere are the entry point's own (src/cli/mod.rs): a command line
//! clap refuses is usage (2), a panic an internal error (1).

use super::refusal::Refusal;
use crate::cli::error::{CliError, ExitCode, ExitStatus, chain};
use qiwang::i18n::Localize;
use qiwang::store::TxError;

/// A library error as the user sees it: its chain of causes in both languages, with the
/// exit code of [`ExitStatus`].
pub fn lib_error<E: std::error::Error + Localize + ExitStatus>(e: E) -> CliError {
    CliError::of(&e, chain(&e))
}

impl From<Refusal> for CliError {
    fn from(refusal: Refusal) -> CliError {
        CliError::of(&refusal, refusal.text().clone())
    }
}

/// The command line's own refusals (src/cli/context/refusal.rs).
impl ExitStatus for Refusal {
    fn exit_code(&self) -> ExitCode {
        use Refusal as R;
        match self {
            R::Format(..)
            | R::OptionValue(..)
            | R::Missing(..)
            | R::Conflict(..)
            | R::WorkbookOnTerminal(..)
            | R::EventInTheWay(..) => Usage,
            R::NotFound(..)
            | R::NothingToDo(..)
            | R::CheckFailed(..)
            | R::Unusable(..)
            | R::Damaged(..) => InvalidInput,
            R::Unpairable(..) => NoLegalPairing,
            R::CannotRead(..) | R::CannotWrite(..) => Io,
            R::Bug(..) => Internal,
        }
    }
}

/// A failed transaction: store problems keep their code, command errors theirs.
pub fn tx_error(e: TxError<CliError>) -> CliError {
    match e {
        TxError::Store(e) => lib_error(e),
        TxError::Command(e) => e,
    }
}

use ExitCode::{Internal, InvalidInput, Io, NoLegalPairing, Usage};

impl ExitStatus for qiwang::store::StoreError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::store::StoreError as E;
        match self {
            E::Damaged { .. }
            | E::OlderCopy { .. }
            | E::NewerSchema { .. }
            | E::NothingToUndo
            | E::NothingToRedo => InvalidInput,
            E::NotAnEvent { .. } | E::NoEventAt { .. } | E::AlreadyExists { .. } => Usage,
            E::Busy { .. } | E::LockLost { .. } | E::Io { .. } => Io,
        }
    }
}

impl ExitStatus for qiwang::serve::ServeError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::serve::ServeError as E;
        match self {
            E::Bind { .. } | E::Runtime(..) | E::TlsRead { .. } => Io,
            E::TlsInvalid { .. } => InvalidInput,
        }
    }
}

impl ExitStatus for qiwang::input::InputError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::input::InputError as E;
        match self {
            E::NotAFile(..) | E::TooLarge { .. } => InvalidInput,
            E::Io { .. } => Io,
        }
    }
}

impl ExitStatus for qiwang::report::publish::PublishError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::report::publish::PublishError as E;
        match self {
            E::Outside(..) | E::NoFolder(..) => InvalidInput,
            E::Symlink(..)
            | E::FileLink(..)
            | E::Foreign(..)
            | E::NotAFolder(..)
            | E::FolderInTheWay(..)
            | E::Exists(..)
            | E::Io { .. } => Io,
        }
    }
}

impl ExitStatus for qiwang::pairing::EditError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::pairing::EditError as E;
        match self {
            E::Edit(e) => e.exit_code(),
            E::NoRound { .. } | E::HasResults { .. } | E::SharedTable { .. } | E::HardRules(_) => {
                InvalidInput
            }
        }
    }
}

impl ExitStatus for qiwang::pairing::PairingError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::pairing::PairingError as E;
        match self {
            E::NoLegalPairing { .. } => NoLegalPairing,
            E::RoundIncomplete { .. }
            | E::AllRoundsPlayed { .. }
            | E::NoPlayers { .. }
            | E::CriteriaTooWide { .. }
            | E::PlayerNotInRound { .. }
            | E::SamePlayer { .. }
            | E::TableZero
            | E::SheetNumbers { .. }
            | E::KnockoutFinished { .. }
            | E::QualificationTie { .. }
            | E::NotInField { .. }
            | E::KnockoutStray { .. }
            | E::NothingToUnpair { .. }
            | E::RoundHasResults { .. } => InvalidInput,
        }
    }
}

impl ExitStatus for qiwang::rules_update::RulesUpdateError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::rules_update::RulesUpdateError as E;
        match self {
            E::Invalid(..)
            | E::AltersPlayedRounds(..)
            | E::ContradictsField { .. }
            | E::Unchanged => InvalidInput,
        }
    }
}

impl ExitStatus for qiwang::teams::TeamError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::teams::TeamError as E;
        match self {
            E::Pairing(e) => e.exit_code(),
            E::NotATeamEvent
            | E::RoundIncomplete { .. }
            | E::AllRoundsPlayed { .. }
            | E::TooFewTeams { .. }
            | E::ShortLineup { .. }
            | E::NoRound { .. }
            | E::RoundOutsideSchedule { .. }
            | E::NoMatch { .. }
            | E::BoardCount { .. }
            | E::BadToken { .. }
            | E::NoMatchForTeam { .. }
            | E::BoardRule { .. }
            | E::NoTiebreak { .. }
            | E::TiebreakDecided { .. }
            | E::UnknownTeam { .. }
            | E::NotInTeam { .. }
            | E::NotInLineup { .. }
            | E::NothingToUnpair
            | E::RoundHasResults { .. }
            | E::MatchHasResults { .. }
            | E::FileMismatch { .. }
            | E::MissingColumn { .. }
            | E::TeamMatchOpen { .. }
            | E::TeamEventOver { .. }
            | E::TeamAlreadyWithdrawn { .. }
            | E::TooFewWomen { .. }
            | E::TeamNotWithdrawn { .. } => InvalidInput,
        }
    }
}

impl ExitStatus for qiwang::results::SourceError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::results::SourceError as E;
        match self {
            E::Workbook { .. } | E::Undecodable { .. } => InvalidInput,
        }
    }
}

impl ExitStatus for qiwang::results::TypedNamesError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::results::TypedNamesError as E;
        match self {
            // README "Exit codes": `--names` not matching the tables typed is usage.
            E::Count { .. } => Usage,
            E::Unreadable(e) => e.exit_code(),
        }
    }
}

impl ExitStatus for qiwang::results::ResultError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::results::ResultError as E;
        match self {
            E::BadToken { .. }
            | E::BadFouls { .. }
            | E::BadTable { .. }
            | E::BadRound { .. }
            | E::MissingOutcome { .. }
            | E::NoEntries
            | E::CsvRow { .. }
            | E::DuplicateRow { .. }
            | E::HeaderUnreadable { .. }
            | E::NoRows { .. }
            | E::CsvHeader { .. }
            | E::EmptyGroupCell
            | E::GroupColumnUnexpected { .. }
            | E::GroupColumnMissing { .. }
            | E::GroupNotChosen { .. }
            | E::UnknownGroupName { .. }
            | E::UnknownHall { .. }
            | E::HallNotGroups { .. }
            | E::Csv { .. }
            | E::UnknownGroup { .. }
            | E::NoRounds { .. }
            | E::RoundMissing { .. }
            | E::RoundOutsideSchedule { .. }
            | E::TableMissing { .. }
            | E::DuplicateTable { .. }
            | E::FoulsOnForfeit { .. }
            | E::FoulsOverLimit { .. }
            | E::FoulsContradictWinner { .. }
            | E::BothAtFoulLimit { .. }
            | E::UnknownPlayer { .. }
            | E::HallTableMissing { .. }
            | E::Mismatch(..)
            | E::AlreadyWithdrawn { .. }
            | E::PairedAfterWithdrawal { .. }
            | E::UnplayedGame { .. }
            | E::EventOver { .. }
            | E::PenaltiesNotAllowed
            | E::PenaltyNotPositive { .. }
            | E::PenaltyTooLarge { .. }
            | E::PenaltyNeedsReason
            | E::WarningNeedsReason
            | E::RoundNotPaired { .. }
            | E::RoundUnfinished { .. }
            | E::KnockoutNotDue { .. }
            | E::NotWithdrawn { .. }
            | E::BadWithdrawalRound { .. }
            | E::EmptyReason
            | E::NoPlayoffNeeded { .. }
            | E::PlayoffMismatch { .. }
            | E::Many(..) => InvalidInput,
            // `qiwang penalty` without `POINTS` in an event with no `disturbance_penalty`.
            E::PenaltyPointsNeeded => Usage,
        }
    }
}

impl ExitStatus for qiwang::prizes::PrizeError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::prizes::PrizeError as E;
        match self {
            E::UnknownList { .. }
            | E::NoListTie { .. }
            | E::ListPlayoffMismatch { .. }
            | E::UnknownPlayer { .. }
            | E::AlreadyDisqualified { .. }
            | E::NotDisqualified { .. }
            | E::EmptyReason
            | E::BadRound { .. }
            | E::PairedFrom { .. } => InvalidInput,
        }
    }
}

impl ExitStatus for qiwang::lookup::LookupError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::lookup::LookupError as E;
        match self {
            // README "Exit codes": a missing `--group` is a usage error.
            E::GroupNeeded { .. } => Usage,
            E::UnknownGroup { .. }
            | E::CancelledPool { .. }
            | E::MergeCycle { .. }
            | E::BadNumber { .. }
            | E::NoNumber { .. }
            | E::NumberInSeveralGroups { .. }
            | E::NoId { .. }
            | E::NoName { .. }
            | E::NameInOtherGroup { .. }
            | E::SwapAcrossPools { .. }
            | E::SeveralNamed { .. } => InvalidInput,
        }
    }
}

impl ExitStatus for qiwang::registration::EntryError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::registration::EntryError as E;
        match self {
            E::Invalid(..)
            | E::GroupFixed { .. }
            | E::NoPlayer(..)
            | E::AfterDeadline { .. }
            | E::EntriesClosed { .. }
            | E::FieldFixed { .. } => InvalidInput,
            E::Group(e) => e.exit_code(),
            E::Refused(..) => InvalidInput,
        }
    }
}

impl ExitStatus for qiwang::pairing::TurnError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::pairing::TurnError as E;
        match self {
            E::SeedAfterFirstRound => Usage,
            E::Pool(e) => e.exit_code(),
        }
    }
}

impl ExitStatus for qiwang::commands::pair::PairError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::commands::pair::PairError as E;
        match self {
            E::Turn(e) => e.exit_code(),
            E::Pairing(e) => e.exit_code(),
            E::Refused(..) => NoLegalPairing,
            E::Team(e) => e.exit_code(),
            E::NothingReady(..) => InvalidInput,
            E::Store(e) => e.exit_code(),
            // The refusal `xlsx_error` makes of it decides: a sheet past Excel's limits is
            // a format refused, the rest a bug.
            E::Workbook(e) => super::xlsx::xlsx_refusal(e).exit_code(),
        }
    }
}

/// A `pair` that made no round: a workbook that could not be made is said as every
/// command's ([`xlsx_error`](super::xlsx_error)); the rest through [`lib_error`].
pub fn pair_error(e: qiwang::commands::pair::PairError) -> CliError {
    use qiwang::commands::pair::PairError as E;
    match e {
        E::Workbook(e) => super::xlsx_error(e),
        e @ (E::Turn(..)
        | E::Pairing(..)
        | E::Refused(..)
        | E::Team(..)
        | E::NothingReady(..)
        | E::Store(..)) => lib_error(e),
    }
}

impl ExitStatus for qiwang::commands::import::ImportFailed {
    fn exit_code(&self) -> ExitCode {
        use qiwang::commands::import::ImportFailed as E;
        match self {
            E::Read(e) => e.exit_code(),
            E::Entry(e) => e.exit_code(),
            E::Store(e) => e.exit_code(),
        }
    }
}

impl ExitStatus for qiwang::commands::pair::EditRefused {
    fn exit_code(&self) -> ExitCode {
        self.error.exit_code()
    }
}

/// A failed transaction of a library command: the store's problems keep their code, the
/// command's refusals theirs.
impl<E: ExitStatus> ExitStatus for TxError<E> {
    fn exit_code(&self) -> ExitCode {
        match self {
            TxError::Store(e) => e.exit_code(),
            TxError::Command(e) => e.exit_code(),
        }
    }
}

impl ExitStatus for qiwang::commands::check::ProofError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::commands::check::ProofError as E;
        match self {
            E::NoSuchRound(..) => InvalidInput,
            E::Pairing(e) => e.exit_code(),
        }
    }
}

impl ExitStatus for qiwang::registration::GroupError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::registration::GroupError as E;
        match self {
            E::BelowMinimum { .. }
            | E::MergePending { .. }
            | E::UnknownGroup { .. }
            | E::NotAPool { .. }
            | E::HasMergeTarget { .. }
            | E::AlreadyPaired { .. }
            | E::Merged { .. }
            | E::Cancelled { .. }
            | E::EntryCancelled { .. }
            | E::MoveCancelled { .. }
            | E::ReinstateCancelled { .. }
            | E::NotBelowMinimum { .. } => InvalidInput,
        }
    }
}

impl ExitStatus for qiwang::registration::MergeError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::registration::MergeError as E;
        match self {
            E::UnknownGroup { .. }
            | E::NotAPool { .. }
            | E::SameGroup { .. }
            | E::AlreadyMerged { .. }
            | E::TargetMerged { .. }
            | E::Cancelled { .. }
            | E::TargetCancelled { .. }
            | E::Started { .. }
            | E::NotBelowMinimum { .. }
            | E::NotItsTarget { .. }
            | E::TargetClosed { .. } => InvalidInput,
        }
    }
}

impl ExitStatus for qiwang::views::SheetError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::views::SheetError as E;
        match self {
            E::NothingPaired | E::NoSuchRound { .. } | E::OutsideSchedule { .. } => InvalidInput,
        }
    }
}

impl ExitStatus for qiwang::report::trf::TrfError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::report::trf::TrfError as E;
        match self {
            E::ColourDependentScoring { .. }
            | E::Empty(..)
            | E::TooManyPlayers { .. }
            | E::RatingTooWide { .. }
            | E::PointsTooWide { .. } => InvalidInput,
        }
    }
}

impl ExitStatus for qiwang::views::TemplateError {
    fn exit_code(&self) -> ExitCode {
        use qiwang::views::TemplateError as E;
        match self {
            E::NotToml { .. } | E::NotText(..) | E::BadSize(..) | E::UnknownKey(..) => InvalidInput,
        }
    }
}

// The four below are structs, not enums: each is destructured whole, which stops compiling
// if it becomes an enum, so a new kind of problem then gets its own arm here.

/// Problems collected from a rulebook file the user gave (every one names its line).
impl ExitStatus for qiwang::rulebook::RulebookErrors {
    fn exit_code(&self) -> ExitCode {
        let qiwang::rulebook::RulebookErrors { .. } = self;
        InvalidInput
    }
}

/// Problems collected from a registration file the user gave (each names its row or cell).
impl ExitStatus for qiwang::registration::ImportErrors {
    fn exit_code(&self) -> ExitCode {
        let qiwang::registration::ImportErrors { .. } = self;
        InvalidInput
    }
}

/// A name or club the GBK encoding the user asked for cannot write.
impl ExitStatus for qiwang::report::safe::EncodeError {
    fn exit_code(&self) -> ExitCode {
        let qiwang::report::safe::EncodeError { .. } = self;
        InvalidInput
    }
}

/// A file name that would be written outside the folder the user gave.
impl ExitStatus for qiwang::report::safe::OutsideError {
    fn exit_code(&self) -> ExitCode {
        let qiwang::report::safe::OutsideError { .. } = self;
        InvalidInput
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The codes scripts rely on, pinned for one variant of each kind.
    #[test]
    fn io_usage_and_pairing_codes_are_kept_apart() {
        use qiwang::store::StoreError;
        assert_eq!(StoreError::NothingToRedo.exit_code(), InvalidInput);
        let not_event = StoreError::NotAnEvent {
            searched_from: std::path::PathBuf::from("x"),
        };
        assert_eq!(not_event.exit_code(), Usage);
        let io = qiwang::input::InputError::Io {
            path: "x".into(),
            error: std::io::Error::other("x"),
        };
        assert_eq!(io.exit_code(), Io);
        assert_eq!(
            qiwang::pairing::PairingError::TableZero.exit_code(),
            InvalidInput
        );
    }

    /// The command line's own refusals keep the codes the README documents: the command
    /// as typed is usage, what the event holds invalid input, files I/O.
    #[test]
    fn refusals_have_the_documented_codes() {
        use qiwang::i18n::Text;
        let t = Text::default;
        let cases = [
            (Refusal::Format(t()), Usage),
            (Refusal::OptionValue(t()), Usage),
            (Refusal::Missing(t()), Usage),
            (Refusal::Conflict(t()), Usage),
            (Refusal::WorkbookOnTerminal(t()), Usage),
            (Refusal::EventInTheWay(t()), Usage),
            (Refusal::NotFound(t()), InvalidInput),
            (Refusal::NothingToDo(t()), InvalidInput),
            (Refusal::CheckFailed(t()), InvalidInput),
            (Refusal::Unusable(t()), InvalidInput),
            (Refusal::Damaged(t()), InvalidInput),
            (Refusal::Unpairable(t()), NoLegalPairing),
            (Refusal::CannotRead(t()), Io),
            (Refusal::CannotWrite(t()), Io),
            (Refusal::Bug(t()), Internal),
        ];
        for (refusal, code) in cases {
            assert_eq!(refusal.exit_code(), code, "{refusal:?}");
            assert_eq!(CliError::from(refusal).code(), code);
        }
        let penalty = qiwang::results::ResultError::PenaltyPointsNeeded;
        assert_eq!(lib_error(penalty).code(), Usage);
    }

    /// A bug found without a panic is worded as a panic is: the one internal-error
    /// report, in both languages whatever the language, with what failed; exit code 1.
    #[test]
    fn a_bug_reads_as_the_one_internal_error_report() {
        use qiwang::rulebook::Lang;
        let e = CliError::from(Refusal::bug("cannot write the rulebook as JSON: x"));
        assert_eq!(e.code(), Internal);
        let want = qiwang::panics::report("cannot write the rulebook as JSON: x");
        for lang in [Lang::Zh, Lang::En] {
            assert_eq!(e.render(lang), want);
        }
        assert!(want.starts_with("内部错误：") && want.contains("\ninternal error: "));
    }
}
