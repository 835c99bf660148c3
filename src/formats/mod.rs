//! One module per agent runtime. Each module is small and self-describing: a doc comment
//! naming the CLI, its flags and the evidence the format was read from, then
//!
//! - `detect(&Value) -> Confidence`: is this parsed JSON line one of mine?
//! - `parse(&Value, line, ts, Option<&mut State>, &mut Vec<Entry>)`: the entries for it.
//!   `None` state means the stateless path (`parseStdoutLine`): the output must then be
//!   complete and depend on this line alone.
//! - `State`: what the stateful parser keeps between lines (delta bookkeeping and the
//!   like), bounded in size.
//!
//! This file only lists the runtimes and dispatches; shared mechanisms live in `common`
//! (fields, fallbacks) and `crate::parser` (line splitting, tool pairing, format locking).

use crate::prelude::*;
pub mod common;

#[cfg(feature = "acp")]
pub mod acp;
#[cfg(feature = "amp")]
pub mod amp;
#[cfg(feature = "amplifier")]
pub mod amplifier;
#[cfg(feature = "claw")]
pub mod claw;
#[cfg(feature = "claude")]
pub mod claude;
#[cfg(feature = "codex")]
pub mod codex;
#[cfg(feature = "cursor")]
pub mod cursor;
#[cfg(feature = "cursor_cloud")]
pub mod cursor_cloud;
pub mod entries;
#[cfg(feature = "gemini")]
pub mod gemini;
#[cfg(feature = "agy")]
pub mod agy;
#[cfg(feature = "copilot")]
pub mod copilot;
#[cfg(feature = "droid")]
pub mod droid;
#[cfg(feature = "goose")]
pub mod goose;
#[cfg(feature = "grok")]
pub mod grok;
#[cfg(feature = "hermes")]
pub mod hermes;
#[cfg(feature = "kimi")]
pub mod kimi;
#[cfg(feature = "kiro")]
pub mod kiro;
#[cfg(feature = "openclaw")]
pub mod openclaw;
#[cfg(feature = "opencode")]
pub mod opencode;
#[cfg(feature = "openrouter")]
pub mod openrouter;
#[cfg(feature = "pi")]
pub mod pi;
#[cfg(feature = "letta")]
pub mod letta;
#[cfg(feature = "cline")]
pub mod cline;
#[cfg(feature = "openhands")]
pub mod openhands;
pub mod plain;

use crate::entry::Entry;
use crate::formats::common::Emit;
pub use common::Confidence;
use crate::json::Value;

/// A runtime whose stdout we read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Claude,
    Codex,
    Gemini,
    OpenCode,
    Cursor,
    Pi,
    OpenClaw,
    Amp,
    /// ACP agents: Paperclip's `acpx.*` run-log lines and raw ACP JSON-RPC.
    Acp,
    Grok,
    Kimi,
    CursorCloud,
    /// `hermes chat` text output (Paperclip's `hermes_local`); read from text lines.
    Hermes,
    /// Paperclip's `hermes_gateway` log lines; read from text lines.
    HermesGateway,
    /// The OpenRouter tool loop adapters' JSON lines (no CLI: an in-process loop).
    OpenRouter,
    /// Letta Code `letta -p … --output-format stream-json` (letta.rs).
    Letta,
    /// Cline CLI 2.x `cline --json` (cline.rs).
    Cline,
    /// OpenHands CLI `openhands --headless --json` (openhands.rs).
    OpenHands,
    /// Google Antigravity CLI `agy --output-format stream-json` (agy.rs).
    Agy,
    /// GitHub Copilot CLI `copilot -p … --output-format json` (copilot.rs).
    Copilot,
    /// Factory Droid `droid exec --output-format stream-json` (droid.rs).
    Droid,
    /// Goose `goose run --output-format stream-json` (goose.rs).
    Goose,
    /// Kiro CLI `kiro-cli chat --no-interactive` terminal text; read from text lines (kiro.rs).
    Kiro,
    /// Amplifier through its Paperclip bridge's JSONL protocol v1.0 (amplifier.rs).
    Amplifier,
    /// Claw Code `claw -p … --output-format json`: one object per run (claw.rs).
    Claw,
    /// Plain text (ANSI stripped, stderr markers recognised). Never detected from JSON.
    Plain,
}

/// Every name `Format::from_name` accepts (lower case), with the adapter type names.
const FORMAT_NAMES: &[(&str, Format)] = &[
    ("claude", Format::Claude),
    ("claude-code", Format::Claude),
    ("claude_local", Format::Claude),
    ("claude-local", Format::Claude),
    ("qwen", Format::Claude),
    ("qwen-code", Format::Claude),
    ("codex", Format::Codex),
    ("codex-local", Format::Codex),
    ("codex_local", Format::Codex),
    ("gemini", Format::Gemini),
    ("gemini-cli", Format::Gemini),
    ("gemini_local", Format::Gemini),
    ("gemini-local", Format::Gemini),
    ("opencode", Format::OpenCode),
    ("opencode-local", Format::OpenCode),
    ("opencode_local", Format::OpenCode),
    // Kilo CLI 1.x (`kilo run --format json`) is OpenCode's run command: the same events.
    ("kilo", Format::OpenCode),
    ("kilocode", Format::OpenCode),
    ("kilo-local", Format::OpenCode),
    ("kilo_local", Format::OpenCode),
    ("cursor", Format::Cursor),
    ("cursor-agent", Format::Cursor),
    ("cursor_local", Format::Cursor),
    ("cursor-local", Format::Cursor),
    ("pi", Format::Pi),
    ("pi-local", Format::Pi),
    ("pi_local", Format::Pi),
    // oh-my-pi prints pi's events plus its own (pi/omp.rs).
    ("omp", Format::Pi),
    ("oh-my-pi", Format::Pi),
    ("omp_local", Format::Pi),
    ("omp-local", Format::Pi),
    ("openclaw", Format::OpenClaw),
    ("openclaw-gateway", Format::OpenClaw),
    ("openclaw_gateway", Format::OpenClaw),
    ("amp", Format::Amp),
    ("acp", Format::Acp),
    ("acpx", Format::Acp),
    ("agent-client-protocol", Format::Acp),
    ("acpx_local", Format::Acp),
    ("acpx-local", Format::Acp),
    ("agy", Format::Agy),
    ("antigravity", Format::Agy),
    ("antigravity_local", Format::Agy),
    ("agy_local", Format::Agy),
    ("copilot", Format::Copilot),
    ("copilot-cli", Format::Copilot),
    ("copilot_local", Format::Copilot),
    ("copilot-local", Format::Copilot),
    ("github-copilot", Format::Copilot),
    ("amplifier", Format::Amplifier),
    ("amplifier_local", Format::Amplifier),
    ("amplifier-local", Format::Amplifier),
    ("claw", Format::Claw),
    ("claw-code", Format::Claw),
    ("claw_local", Format::Claw),
    ("claw-local", Format::Claw),
    ("droid", Format::Droid),
    ("factory-droid", Format::Droid),
    ("droid_local", Format::Droid),
    ("droid-local", Format::Droid),
    ("goose", Format::Goose),
    ("goose_local", Format::Goose),
    ("goose-local", Format::Goose),
    ("grok", Format::Grok),
    ("grok-local", Format::Grok),
    ("grok_local", Format::Grok),
    ("kimi", Format::Kimi),
    ("kimi-local", Format::Kimi),
    ("kimi_local", Format::Kimi),
    ("cursor-cloud", Format::CursorCloud),
    ("cursor_cloud", Format::CursorCloud),
    ("kiro", Format::Kiro),
    ("kiro-cli", Format::Kiro),
    ("kiro_cli", Format::Kiro),
    ("kiro_local", Format::Kiro),
    ("kiro-local", Format::Kiro),
    ("hermes", Format::Hermes),
    ("hermes-local", Format::Hermes),
    ("hermes_local", Format::Hermes),
    ("hermes-gateway", Format::HermesGateway),
    ("hermes_gateway", Format::HermesGateway),
    ("openrouter", Format::OpenRouter),
    ("openrouter_local", Format::OpenRouter),
    ("openrouter-local", Format::OpenRouter),
    ("qwen_openrouter", Format::OpenRouter),
    ("qwen-openrouter", Format::OpenRouter),
    ("letta", Format::Letta),
    ("letta-code", Format::Letta),
    ("letta_code", Format::Letta),
    ("letta-local", Format::Letta),
    ("letta_local", Format::Letta),
    ("cline", Format::Cline),
    ("cline-cli", Format::Cline),
    ("cline_local", Format::Cline),
    ("cline-local", Format::Cline),
    ("openhands", Format::OpenHands),
    ("openhands-cli", Format::OpenHands),
    ("openhands_local", Format::OpenHands),
    ("openhands-local", Format::OpenHands),
    ("plain", Format::Plain),
    ("text", Format::Plain),
];

impl Format {
    /// JSON runtimes in detection order: when two modules are equally sure, the earlier wins.
    /// Cursor and Amp come before Claude because their lines are Claude-like with extra
    /// marks that only they print.
    /// The runtimes added later come last so they never take a line an earlier one reads,
    /// with two exceptions whose marks are their own. The OpenRouter tool loop (`runId` in
    /// init, `finishReason` or `elapsedMs` beside camelCase usage): Cursor's reader of
    /// camelCase `result` lines would otherwise take its result line and lose its cost.
    /// Letta comes before Claude because Claude claims every `stream_event` and `system/init`,
    /// and Letta's lines carry marks (`message_type`, `agent_id` with `conversation_id`,
    /// `run_ids`) that no Claude line has. Amplifier's bridge comes before Gemini, which
    /// claims every `init` with a `session_id`: the bridge's carries a `bundle` no Gemini
    /// line has. Claw Code comes before Codex, which claims `{"type": "error", …}`: claw's
    /// failure object carries `action: "abort"` and `error_kind` no Codex line has.
    pub const JSON: [Format; 22] = [
        Format::OpenRouter,
        Format::Cursor,
        Format::Amp,
        Format::Letta,
        Format::Claw,
        Format::Claude,
        Format::Codex,
        Format::Amplifier,
        Format::Gemini,
        Format::OpenCode,
        Format::Pi,
        Format::OpenClaw,
        Format::Acp,
        Format::CursorCloud,
        Format::Grok,
        Format::Kimi,
        Format::Cline,
        Format::OpenHands,
        Format::Agy,
        Format::Copilot,
        Format::Droid,
        Format::Goose,
    ];

    /// The runtimes read from text lines (not detected from JSON). With [`Format::JSON`],
    /// every runtime: what the CLI's `--format` offers (a test checks no name is missing).
    pub const TEXT: [Format; 4] = [Format::Hermes, Format::HermesGateway, Format::Kiro, Format::Plain];

    pub fn name(self) -> &'static str {
        match self {
            Format::Claude => "claude",
            Format::Codex => "codex",
            Format::Gemini => "gemini",
            Format::OpenCode => "opencode",
            Format::Cursor => "cursor",
            Format::Pi => "pi",
            Format::OpenClaw => "openclaw",
            Format::Amp => "amp",
            Format::Acp => "acp",
            Format::Grok => "grok",
            Format::Kimi => "kimi",
            Format::CursorCloud => "cursor_cloud",
            Format::Hermes => "hermes",
            Format::HermesGateway => "hermes_gateway",
            Format::OpenRouter => "openrouter",
            Format::Letta => "letta",
            Format::Cline => "cline",
            Format::OpenHands => "openhands",
            Format::Agy => "agy",
            Format::Copilot => "copilot",
            Format::Droid => "droid",
            Format::Goose => "goose",
            Format::Kiro => "kiro",
            Format::Amplifier => "amplifier",
            Format::Claw => "claw",
            Format::Plain => "plain",
        }
    }

    pub fn from_name(name: &str) -> Option<Format> {
        let n = name.trim().to_ascii_lowercase();
        FORMAT_NAMES.iter().find(|(alias, _)| *alias == n).map(|(_, f)| *f)
    }

    /// The runtime label used in fallback notices ("codex event: …").
    pub fn label(self) -> &'static str {
        self.name()
    }

    /// Whether this build reads the runtime (each JSON runtime is a cargo feature, so a
    /// per-runtime package can leave the others out).
    pub fn compiled(self) -> bool {
        match self {
            Format::Claude => cfg!(feature = "claude"),
            Format::Codex => cfg!(feature = "codex"),
            Format::Gemini => cfg!(feature = "gemini"),
            Format::OpenCode => cfg!(feature = "opencode"),
            Format::Cursor => cfg!(feature = "cursor"),
            Format::Pi => cfg!(feature = "pi"),
            Format::OpenClaw => cfg!(feature = "openclaw"),
            Format::Amp => cfg!(feature = "amp"),
            Format::Acp => cfg!(feature = "acp"),
            Format::Grok => cfg!(feature = "grok"),
            Format::Kimi => cfg!(feature = "kimi"),
            Format::CursorCloud => cfg!(feature = "cursor_cloud"),
            Format::Hermes | Format::HermesGateway => cfg!(feature = "hermes"),
            Format::OpenRouter => cfg!(feature = "openrouter"),
            Format::Letta => cfg!(feature = "letta"),
            Format::Cline => cfg!(feature = "cline"),
            Format::OpenHands => cfg!(feature = "openhands"),
            Format::Agy => cfg!(feature = "agy"),
            Format::Copilot => cfg!(feature = "copilot"),
            Format::Droid => cfg!(feature = "droid"),
            Format::Goose => cfg!(feature = "goose"),
            Format::Kiro => cfg!(feature = "kiro"),
            Format::Amplifier => cfg!(feature = "amplifier"),
            Format::Claw => cfg!(feature = "claw"),
            Format::Plain => true,
        }
    }

    #[cfg_attr(not(feature = "runtimes"), allow(unused_variables))]
    pub fn detect(self, v: &Value) -> Confidence {
        match self {
            #[cfg(feature = "claude")]
            Format::Claude => claude::detect(v),
            #[cfg(feature = "codex")]
            Format::Codex => codex::detect(v),
            #[cfg(feature = "gemini")]
            Format::Gemini => gemini::detect(v),
            #[cfg(feature = "opencode")]
            Format::OpenCode => opencode::detect(v),
            #[cfg(feature = "cursor")]
            Format::Cursor => cursor::detect(v),
            #[cfg(feature = "pi")]
            Format::Pi => pi::detect(v),
            #[cfg(feature = "openclaw")]
            Format::OpenClaw => openclaw::detect(v),
            #[cfg(feature = "amp")]
            Format::Amp => amp::detect(v),
            #[cfg(feature = "acp")]
            Format::Acp => acp::detect(v),
            #[cfg(feature = "grok")]
            Format::Grok => grok::detect(v),
            #[cfg(feature = "kimi")]
            Format::Kimi => kimi::detect(v),
            #[cfg(feature = "cursor_cloud")]
            Format::CursorCloud => cursor_cloud::detect(v),
            #[cfg(feature = "openrouter")]
            Format::OpenRouter => openrouter::detect(v),
            #[cfg(feature = "letta")]
            Format::Letta => letta::detect(v),
            #[cfg(feature = "cline")]
            Format::Cline => cline::detect(v),
            #[cfg(feature = "openhands")]
            Format::OpenHands => openhands::detect(v),
            #[cfg(feature = "agy")]
            Format::Agy => agy::detect(v),
            #[cfg(feature = "copilot")]
            Format::Copilot => copilot::detect(v),
            #[cfg(feature = "droid")]
            Format::Droid => droid::detect(v),
            #[cfg(feature = "goose")]
            Format::Goose => goose::detect(v),
            #[cfg(feature = "amplifier")]
            Format::Amplifier => amplifier::detect(v),
            #[cfg(feature = "claw")]
            Format::Claw => claw::detect(v),
            #[allow(unreachable_patterns)]
            _ => Confidence::No,
        }
    }
}

/// Per-runtime state of one stateful parser. Only the locked runtime's part is used.
#[derive(Debug, Default)]
pub struct States {
    #[cfg(feature = "claude")]
    pub claude: claude::State,
    #[cfg(feature = "codex")]
    pub codex: codex::State,
    #[cfg(feature = "gemini")]
    pub gemini: gemini::State,
    #[cfg(feature = "opencode")]
    pub opencode: opencode::State,
    #[cfg(feature = "cursor")]
    pub cursor: cursor::State,
    #[cfg(feature = "pi")]
    pub pi: pi::State,
    #[cfg(feature = "openclaw")]
    pub openclaw: openclaw::State,
    #[cfg(feature = "amp")]
    pub amp: amp::State,
    #[cfg(feature = "acp")]
    pub acp: acp::State,
    #[cfg(feature = "grok")]
    pub grok: grok::State,
    #[cfg(feature = "openhands")]
    pub openhands: openhands::State,
    #[cfg(feature = "cline")]
    pub cline: cline::State,
    #[cfg(feature = "copilot")]
    pub copilot: copilot::State,
    #[cfg(feature = "droid")]
    pub droid: droid::State,
    #[cfg(feature = "kiro")]
    pub kiro: kiro::State,
    #[cfg(feature = "goose")]
    pub goose: goose::State,
    #[cfg(feature = "agy")]
    pub agy: agy::State,
    #[cfg(feature = "amplifier")]
    pub amplifier: amplifier::State,
}

/// Parses one JSON object line as `format`. `states` is `None` on the stateless path.
pub fn parse_json(
    format: Format,
    v: &Value,
    line: &str,
    ts: &str,
    states: Option<&mut States>,
    out: &mut Vec<Entry>,
) {
    match format {
        #[cfg(feature = "claude")]
        Format::Claude => claude::parse(v, line, ts, states.map(|s| &mut s.claude), out),
        #[cfg(feature = "codex")]
        Format::Codex => codex::parse(v, line, ts, states.map(|s| &mut s.codex), out),
        #[cfg(feature = "gemini")]
        Format::Gemini => gemini::parse(v, line, ts, states.map(|s| &mut s.gemini), out),
        #[cfg(feature = "opencode")]
        Format::OpenCode => opencode::parse(v, line, ts, states.map(|s| &mut s.opencode), out),
        #[cfg(feature = "cursor")]
        Format::Cursor => cursor::parse(v, line, ts, states.map(|s| &mut s.cursor), out),
        #[cfg(feature = "pi")]
        Format::Pi => pi::parse(v, line, ts, states.map(|s| &mut s.pi), out),
        #[cfg(feature = "openclaw")]
        Format::OpenClaw => openclaw::parse(v, line, ts, states.map(|s| &mut s.openclaw), out),
        #[cfg(feature = "amp")]
        Format::Amp => amp::parse(v, line, ts, states.map(|s| &mut s.amp), out),
        #[cfg(feature = "acp")]
        Format::Acp => acp::parse(v, line, ts, states.map(|s| &mut s.acp), out),
        #[cfg(feature = "grok")]
        Format::Grok => grok::parse(v, line, ts, states.map(|s| &mut s.grok), out),
        #[cfg(feature = "kimi")]
        Format::Kimi => kimi::parse(v, line, ts, None, out),
        #[cfg(feature = "cursor_cloud")]
        Format::CursorCloud => cursor_cloud::parse(v, line, ts, None, out),
        #[cfg(feature = "openrouter")]
        Format::OpenRouter => openrouter::parse(v, line, ts, None, out),
        #[cfg(feature = "letta")]
        Format::Letta => letta::parse(v, line, ts, None, out),
        #[cfg(feature = "cline")]
        Format::Cline => cline::parse(v, line, ts, states.map(|s| &mut s.cline), out),
        #[cfg(feature = "openhands")]
        Format::OpenHands => openhands::parse(v, line, ts, states.map(|s| &mut s.openhands), out),
        #[cfg(feature = "agy")]
        Format::Agy => agy::parse(v, line, ts, states.map(|s| &mut s.agy), out),
        #[cfg(feature = "copilot")]
        Format::Copilot => copilot::parse(v, line, ts, states.map(|s| &mut s.copilot), out),
        #[cfg(feature = "droid")]
        Format::Droid => droid::parse(v, line, ts, states.map(|s| &mut s.droid), out),
        #[cfg(feature = "goose")]
        Format::Goose => goose::parse(v, line, ts, states.map(|s| &mut s.goose), out),
        #[cfg(feature = "amplifier")]
        Format::Amplifier => amplifier::parse(v, line, ts, states.map(|s| &mut s.amplifier), out),
        #[cfg(feature = "claw")]
        Format::Claw => claw::parse(v, ts, out),
        // Hermes and Kiro print text; a JSON line in their streams is read as whichever
        // runtime it is.
        #[cfg(any(feature = "hermes", feature = "kiro"))]
        Format::Hermes | Format::HermesGateway | Format::Kiro => match detect_json(v) {
            Some((f, _)) => parse_json(f, v, line, ts, None, out),
            None => out.emit(common::unknown_event(ts, "", v)),
        },
        // Plain text never reaches here with JSON, and a runtime left out of this build
        // (cargo features) reads nothing: show the event by name.
        #[allow(unreachable_patterns)]
        _ => {
            let _ = (line, &states);
            out.emit(common::unknown_event(ts, format.label(), v))
        }
    }
}

/// Whether a line is one of Paperclip's ACP-engine `acpx.*` lines, which the host writes
/// into the log of the Claude, Codex, Gemini and Kimi adapters (their default engine), so
/// they are read as ACP even when the caller fixed another runtime.
pub fn host_engine_line(v: &Value) -> bool {
    cfg!(feature = "acp") && common::type_of(v).starts_with("acpx.")
}

/// Whether this build reads any JSON runtime (a Hermes-only build reads none).
pub fn reads_json() -> bool {
    Format::JSON.iter().any(|f| f.compiled())
}

/// The most confident JSON runtime for one parsed line, if any claims it.
pub fn detect_json(v: &Value) -> Option<(Format, Confidence)> {
    let mut best: Option<(Format, Confidence)> = None;
    for f in Format::JSON {
        if !f.compiled() {
            continue;
        }
        let c = f.detect(v);
        if c == Confidence::Sure {
            return Some((f, c));
        }
        if c == Confidence::Maybe && best.is_none() {
            best = Some((f, c));
        }
    }
    best
}

/// What a prefix in front of a line holds (`WRAPPERS`).
#[derive(Clone, Copy)]
enum Inner {
    /// The rest is a line of its own.
    Line,
    /// One event of the runtime, `run=… <key>=… data=…` (`common::envelope::event_fields`);
    /// the flag: the adapter forwards OpenClaw's `item` events in place of its `tool` events.
    Event(Format, bool),
    /// The adapter's own notice: a `system` entry with the rest.
    Notice(Format),
}

/// The prefixes adapters write in front of lines we read (found by `common::envelope::find`;
/// docs/extend.md lists them; the fixtures under tests/fixtures/plain/ hold their evidence).
const WRAPPERS: &[(&str, Inner)] = &[
    ("[openclaw-gateway:event]", Inner::Event(Format::OpenClaw, false)),
    ("[openclaw-bridge:event]", Inner::Event(Format::OpenClaw, false)),
    ("[clawclip:event]", Inner::Event(Format::OpenClaw, true)),
    ("[hermes-gateway:event]", Inner::Event(Format::HermesGateway, false)),
    ("[openclaw-gateway]", Inner::Notice(Format::OpenClaw)),
    ("[openclaw-bridge]", Inner::Notice(Format::OpenClaw)),
    ("[clawclip]", Inner::Notice(Format::OpenClaw)),
    ("[hermes-gateway]", Inner::Notice(Format::HermesGateway)),
    ("__PAPERCLIP_TRANSCRIPT__", Inner::Line),
    ("[schemabounce]", Inner::Line),
    ("AF::", Inner::Line),
];

/// A text line with an adapter's prefix in front ([`unwrap`]).
pub enum Wrapped<'l> {
    /// The line inside, to be read as a line (from the top).
    Line(&'l str),
    /// Read: by whom, and how sure (for the stateful parser's lock).
    Read(Format, Confidence),
}

/// Takes an adapter's prefix off a line that is not a JSON object and reads what it holds,
/// or hands back the line inside. `None`: no prefix we know (or a runtime this build leaves
/// out): the line is text.
pub fn unwrap<'l>(line: &'l str, ts: &str, out: &mut Vec<Entry>) -> Option<Wrapped<'l>> {
    let (inner, rest) = common::envelope::find(line, WRAPPERS).filter(|(_, rest)| !rest.is_empty())?;
    // Gateway lines lock the stream as they always did: Hermes' (a text runtime), not
    // OpenClaw's (its adapter log is read as text, its JSON frames by detection).
    let read = |f: Format| match f {
        Format::HermesGateway => Wrapped::Read(f, Confidence::Sure),
        _ => Wrapped::Read(Format::Plain, Confidence::Maybe),
    };
    match inner {
        Inner::Line => Some(Wrapped::Line(rest)),
        Inner::Notice(f) => {
            out.emit(Entry::system(ts, rest));
            Some(read(f))
        }
        Inner::Event(f, items) => {
            let (run, name, data) = common::envelope::event_fields(rest)?;
            read_event(f, items, run, name, data, ts, out).then(|| read(f))
        }
    }
}

/// One `run=… <key>=<name> data=…` event of runtime `f` (`items`: see [`Inner::Event`]);
/// false when this build does not read `f`.
#[cfg_attr(not(feature = "openclaw"), allow(unused_variables))]
fn read_event(f: Format, items: bool, run: &str, name: &str, data: &str, ts: &str, out: &mut Vec<Entry>) -> bool {
    match f {
        #[cfg(feature = "openclaw")]
        Format::OpenClaw => {
            openclaw::log_event(run, name, data, items, ts, out);
            true
        }
        #[cfg(feature = "hermes")]
        Format::HermesGateway => {
            hermes::gateway_event(run, name, data, ts, out);
            true
        }
        _ => false,
    }
}

/// A line that is not a JSON object: a text runtime that knows its marks (Kiro, Hermes)
/// reads it, else the plain-text rules. `format` is the forced or locked runtime, `states`
/// the stateful parser's. Returns who read it and how sure that is (for the stateful
/// parser's lock).
pub fn parse_text(
    line: &str,
    ts: &str,
    format: Option<Format>,
    states: Option<&mut States>,
    out: &mut Vec<Entry>,
) -> (Format, Confidence) {
    // OpenHands' event marker carries nothing itself (the stateful parser joins the event
    // after it; docs/formats/openhands.md).
    #[cfg(feature = "openhands")]
    if line.trim() == openhands::MARKER {
        return (Format::OpenHands, Confidence::Maybe);
    }
    // Kiro's state serves a stream that is Kiro's or not yet known; in another runtime's
    // stream a Kiro mark is read alone.
    #[cfg(feature = "kiro")]
    {
        let kiro = format == Some(Format::Kiro);
        let state = states.filter(|_| kiro || format.is_none()).map(|s| &mut s.kiro);
        if let Some(c) = kiro::parse_text(line, ts, state, kiro, out) {
            return (Format::Kiro, c);
        }
    }
    #[cfg(not(feature = "kiro"))]
    let _ = states;
    #[cfg(feature = "hermes")]
    if hermes::parse_text(line, ts, format == Some(Format::Hermes), out) {
        return if hermes::is_local_mark(line) {
            (Format::Hermes, Confidence::Sure)
        } else {
            // Thinking, `[tool]` starts and spinner remnants: Hermes-like, not proof.
            (Format::Hermes, Confidence::Maybe)
        };
    }
    let _ = format;
    #[cfg(feature = "goose")]
    if let Some(c) = goose::banner_line(line, ts, out) {
        return (Format::Goose, c);
    }
    #[cfg(feature = "agy")]
    if let Some(e) = agy::error_line(line, ts) {
        out.emit(e);
        return (Format::Agy, Confidence::Maybe);
    }
    plain::parse(line, ts, out);
    (Format::Plain, Confidence::Maybe)
}

#[cfg(test)]
mod list_tests {
    use super::{Format, FORMAT_NAMES};

    #[test]
    fn json_and_text_list_every_runtime_a_name_selects() {
        for (alias, f) in FORMAT_NAMES {
            assert!(
                Format::JSON.contains(f) || Format::TEXT.contains(f),
                "{alias} selects {f:?}, which neither Format::JSON nor Format::TEXT lists"
            );
        }
    }
}
