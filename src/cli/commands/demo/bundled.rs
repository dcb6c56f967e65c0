//! The bundled example events `qiwang demo` plays: their rulebooks and registration
//! sheets, compiled into the program, and which of them `--example`, `--team`, `--rules`
//! and `--registrations` choose (each with the path it is named by in the audit log).

use crate::cli::args::{DemoArgs, DemoExample};
use crate::cli::context::Refusal;
use crate::cli::error::CliError;
use qiwang::i18n::Text;

const JINHUA_RULES: &str = include_str!("../../../../rules/jinhua-2018.toml");
const JINHUA_REGISTRATIONS: &[u8] =
    include_bytes!("../../../../examples/jinhua-2018/registrations.csv");
const TEAM_RULES: &str = include_str!("../../../../rules/team-swiss.toml");
const TEAM_REGISTRATIONS: &[u8] =
    include_bytes!("../../../../examples/team-swiss/registrations.xlsx");
const ROUND_ROBIN_RULES: &str = include_str!("../../../../rules/round-robin.toml");
const ROUND_ROBIN_REGISTRATIONS: &[u8] =
    include_bytes!("../../../../examples/round-robin/registrations.csv");
const ROUND_ROBIN_ONLY_RULES: &str = include_str!("../../../../rules/round-robin-only.toml");
const ROUND_ROBIN_ONLY_REGISTRATIONS: &[u8] =
    include_bytes!("../../../../examples/round-robin-only/registrations.csv");
const SWISS_ROUND_ROBIN_RULES: &str = include_str!("../../../../rules/swiss-round-robin.toml");
const SWISS_KNOCKOUT_RULES: &str = include_str!("../../../../rules/swiss-knockout.toml");
const SWISS_KNOCKOUT_REGISTRATIONS: &[u8] =
    include_bytes!("../../../../examples/swiss-knockout/registrations.csv");

/// The rulebook the demo plays, as text, and the path it is named by.
pub(super) fn rules(args: &DemoArgs) -> Result<(String, String), CliError> {
    Ok(match &args.rules {
        Some(p) => (crate::cli::context::read_text(p)?, p.display().to_string()),
        None if args.team => (TEAM_RULES.to_string(), "rules/team-swiss.toml".to_string()),
        None if args.example == DemoExample::RoundRobin => (
            ROUND_ROBIN_RULES.to_string(),
            "rules/round-robin.toml".to_string(),
        ),
        None if args.example == DemoExample::RoundRobinOnly => (
            ROUND_ROBIN_ONLY_RULES.to_string(),
            "rules/round-robin-only.toml".to_string(),
        ),
        None if args.example == DemoExample::SwissRoundRobin => (
            SWISS_ROUND_ROBIN_RULES.to_string(),
            "rules/swiss-round-robin.toml".to_string(),
        ),
        None if args.example == DemoExample::SwissKnockout => (
            SWISS_KNOCKOUT_RULES.to_string(),
            "rules/swiss-knockout.toml".to_string(),
        ),
        None => (
            JINHUA_RULES.to_string(),
            "rules/jinhua-2018.toml".to_string(),
        ),
    })
}

/// The registration sheet the demo imports, as bytes, and the path it is named by.
pub(super) fn registrations(args: &DemoArgs) -> Result<(Vec<u8>, String), CliError> {
    Ok(match &args.registrations {
        Some(p) => (
            crate::cli::context::read_input(p, qiwang::input::InputKind::Sheet)?,
            p.display().to_string(),
        ),
        None if args.team => (
            TEAM_REGISTRATIONS.to_vec(),
            "examples/team-swiss/registrations.xlsx".to_string(),
        ),
        None if args.rules.is_none() && args.example == DemoExample::RoundRobin => (
            ROUND_ROBIN_REGISTRATIONS.to_vec(),
            "examples/round-robin/registrations.csv".to_string(),
        ),
        None if args.rules.is_none() && args.example == DemoExample::RoundRobinOnly => (
            ROUND_ROBIN_ONLY_REGISTRATIONS.to_vec(),
            "examples/round-robin-only/registrations.csv".to_string(),
        ),
        // The Swiss open of the knockout example, its top 6 playing a round robin.
        None if args.rules.is_none()
            && matches!(
                args.example,
                DemoExample::SwissKnockout | DemoExample::SwissRoundRobin
            ) =>
        {
            (
                SWISS_KNOCKOUT_REGISTRATIONS.to_vec(),
                "examples/swiss-knockout/registrations.csv".to_string(),
            )
        }
        None if args.rules.is_none() => (
            JINHUA_REGISTRATIONS.to_vec(),
            "examples/jinhua-2018/registrations.csv".to_string(),
        ),
        None => {
            return Err(CliError::from(Refusal::Missing(Text::new(
                "用 `--rules` 时也请给出 `--registrations`（例如 examples/dongguan-2018/registrations.csv）",
                "with `--rules` give `--registrations` too (e.g. examples/dongguan-2018/registrations.csv)",
            ))));
        }
    })
}
