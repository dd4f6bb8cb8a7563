import ArgumentsKit
import Foundation

@main
enum Entrypoint {
    static func main() async {
        let environment = Self.environment()
        var cli = CLI(environment: environment)
        cli.terminal = TerminalStyle.detect(environment: environment)
        exit(await cli.run(arguments: CommandLineArguments.validated()))
    }

    /// The process's environment, `NAME=value` each (the first of a name wins, as `getenv` answers), read from
    /// `environ`: Foundation's `ProcessInfo` cost a one-note write about a thirtieth of its time to make the same
    /// dictionary. An entry without `=` is skipped.
    static func environment() -> [String: String] {
        var environment: [String: String] = [:]
        var entry = environ
        while let text = entry.pointee {
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: bytes[..<equals], as: UTF8.self)
                if environment[name] == nil { environment[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self) }
            }
            entry += 1
        }
        return environment
    }
}
