import ArgumentsKit
import Foundation
import QRCode
import StrictJSON
import WebView

/// `growcert run share | unshare`: a run's share link, made and revoked by the running web view of the database.
enum ShareCommand {
    static let all = [
        Command(path: ["run", "share"], summary: "a link (and QR code) with which a phone adds evidence to one run", positionals: ["ID"],
                options: RunShareOptions.self,
                discussion: """
                Asks the running 'growcert serve' of this database for a link that adds photos, videos, notes and
                signed transactions to this run only, until it expires; it reads nothing. Prints the URL and a QR code
                to scan (with --json: {"url", "token", "expiresAt"}). The token lives only in the server's memory:
                stopping the server ends every link. Serve on an address the phone can reach (--bind). A finished run's
                link adds late notes and attachments only.
                """) { inv, o in
            let run = try inv.positional(0, "run ID")
            let seconds = try WebError.expirySeconds(o[\.expires] ?? "30m")
            let link = try ShareControl.share(database: try inv.dbPath, runId: run, seconds: seconds)
            if inv.json {
                inv.console.out(JSONValue.object(["url": .string(link.url), "token": .string(link.token), "expiresAt": .string(link.expiresAt)]).prettyText + "\n")
            } else {
                var text = link.url + "\n"
                if let code = try? QRCode(encoding: Array(link.url.utf8)) { text += code.terminalText() }
                text += "Works until \(link.expiresAt) for run \(run) only; revoke it with: growcert run unshare \(run)\n"
                inv.console.out(text)
            }
            return ExitCode.success
        },
        Command(path: ["run", "unshare"], summary: "revoke a run's share links", positionals: ["ID"]) { inv in
            let run = try inv.positional(0, "run ID")
            let count = try ShareControl.unshare(database: try inv.dbPath, runId: run)
            inv.printRecord(run, ["run": .string(run), "revoked": .number(String(count))], human: "Revoked \(count) share link\(count == 1 ? "" : "s") of run \(run).")
            return ExitCode.success
        },
    ]
}

extension ShareCommand {
    /// `run share`'s options.
    struct RunShareOptions: OptionGroup {
        let expires = Option.string("--expires", "DURATION", help: "how long the link works, e.g. 30m or 2h (default 30m, at most 24h)")
    }
}
