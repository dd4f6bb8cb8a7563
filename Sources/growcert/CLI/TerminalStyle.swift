import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a terminal gets beyond plain text: a line when each check starts, a heartbeat during a long wait, and
/// colour for PASS, FAIL and verdicts.
///
/// Only the binary detects it (`detect`): stderr a TTY for progress, stdout (or stderr) a TTY for colour, which
/// `NO_COLOR` (any value) or `TERM=dumb` turns off. `--json` turns everything off (`Invocation`). Tests inject a
/// style, so none depends on a TTY or on timing.
struct TerminalStyle: Sendable, Equatable {
    /// Check-start lines and heartbeats on stderr.
    var progress: Bool
    /// Colour on stdout.
    var colourOut: Bool
    /// Colour on stderr.
    var colourErr: Bool
    /// Seconds of silence during a check before a heartbeat line (and between two of them).
    var heartbeatSeconds: Double = 5

    /// Plain text: no progress lines, no colour (not a terminal, or `--json`).
    static let plain = TerminalStyle(progress: false, colourOut: false, colourErr: false)

    /// The style of this process's streams.
    static func detect(environment: CallEnvironment) -> TerminalStyle {
        let colour = environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        let out = isatty(STDOUT_FILENO) == 1, err = isatty(STDERR_FILENO) == 1
        return TerminalStyle(progress: err, colourOut: colour && out, colourErr: colour && err)
    }

    /// A colour of a word.
    enum Colour: String {
        case green = "32", red = "31", yellow = "33"
    }

    /// The colour of an outcome or verdict word; nil for any other word.
    static func colour(of word: String) -> Colour? {
        switch word {
        case "PASS", "CERTIFIED", "pass", "passed": return .green
        case "FAIL", "FAILED", "fail", "failed", "ERROR": return .red
        case "WAIT", "NOT CERTIFIABLE", "INCOMPLETE", "blocked": return .yellow
        default: return nil
        }
    }

    /// `word` in its colour when `on`, else unchanged. `word` must be one of growcert's own fixed words.
    static func paint(_ word: String, on: Bool) -> String {
        guard on, let colour = colour(of: word) else { return word }
        return "\u{1B}[\(colour.rawValue)m\(word)\u{1B}[0m"
    }
}
