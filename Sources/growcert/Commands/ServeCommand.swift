import ArgumentsKit
import Dispatch
import Foundation
import StrictJSON
import Synchronization
import WebView
#if canImport(Glibc)
import Glibc
#endif

/// `growcert serve`: the web view of the evidence database, until Ctrl-C.
enum ServeCommand {
    static let command = Command(
        path: ["serve"], summary: "browse campaigns, runs, evidence and reports in a browser; share a run with a phone",
        options: ServeOptions.self,
        discussion: """
        Prints one line with the URL and the access token (with --json: {"url", "token"}), then serves until
        Ctrl-C. Every request needs the token: open the printed URL once in a browser (it sets an HttpOnly,
        SameSite=Strict session cookie), or send 'Authorization: Bearer TOKEN'. The pages read only; evidence is
        added through a run's share link ('growcert run share RUN'). A --bind address other than 127.0.0.1 lets
        anyone on that network connect (they still need a token), and without TLS the tokens and the evidence
        cross it in clear: bind another address only on a network you trust. See docs/web.md.
        """,
        run: run)

    static func run(_ inv: Invocation, _ o: OptionValues<ServeOptions>) async throws -> Int32 {
        let bind = o[\.bind] ?? "127.0.0.1"
        let port = UInt16(try o.value(\.port) ?? 0)
        // Fail now, with the usual words, on a database that is not there or not growcert's.
        _ = try inv.openStoreForReading()
        let database = try inv.dbPath
        let server = try WebServer(settings: WebServerSettings(database: database, bindAddress: bind, port: port, version: CLI.version,
                                                               maskKey: try inv.maskKey(), jwsVerifier: inv.jwsVerifier, clock: inv.clock))
        // Said before listening, so it is said even when the address cannot be had.
        if !bind.hasPrefix("127.") {
            inv.console.err("warning: serving on \(bind): anyone who can reach this address can connect (each request still needs a token), and without TLS the tokens and the evidence cross the network in clear. Serve on a network you trust only (docs/web.md).\n")
        }
        // The signals are caught before the server starts, so a stop sent as soon as the line is printed is not lost.
        let stopped = StopSignal()
        let sources = stopped.install()
        try server.start()
        let control = try ShareControlServer(database: database, server: server)
        if inv.json {
            inv.console.out(JSONValue.object(["url": .string(server.baseURL), "token": .string(server.accessToken)]).canonicalText + "\n")
        } else {
            inv.console.out("Serving \(server.baseURL) with access token \(server.accessToken): open \(server.loginURL) once in a browser, or send 'Authorization: Bearer \(server.accessToken)'. Ctrl-C stops.\n")
        }
        await stopped.wait()
        sources.forEach { $0.cancel() }
        control.stop()
        server.stop()
        return ExitCode.success
    }
}

/// Waits for SIGINT or SIGTERM (the default action, ending the process at once, is replaced by a clean stop).
final class StopSignal: Sendable {
    private let waiter = Mutex<(fired: Bool, continuation: CheckedContinuation<Void, Never>?)>((false, nil))

    /// Catches SIGINT and SIGTERM from now on; keep the returned sources until the stop.
    func install() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in fire() }
            source.resume()
            return source
        }
    }

    private func fire() {
        let continuation = waiter.withLock { w -> CheckedContinuation<Void, Never>? in
            w.fired = true
            defer { w.continuation = nil }
            return w.continuation
        }
        continuation?.resume()
    }

    /// Returns once a stop signal has arrived.
    func wait() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let fired = waiter.withLock { w -> Bool in
                if !w.fired { w.continuation = c }
                return w.fired
            }
            if fired { c.resume() }
        }
    }
}

extension ServeCommand {
    /// `serve`'s options.
    struct ServeOptions: OptionGroup {
        let port = Option.integer("--port", "N", help: "the port (default: any free port)", in: 0...65535,
                                  invalid: "--port takes a port number from 0 to 65535 (0: any free port).")
        let bind = Option.string("--bind", "ADDR", help: "the IPv4 address to listen on (default 127.0.0.1: this machine only)")
    }
}
