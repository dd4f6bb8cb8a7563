import Foundation

/// The process arguments, checked to be valid UTF-8 (Swift would silently repair them).
package enum CommandLineArguments {
    /// The arguments after the program name; nil entries were not valid UTF-8.
    package static func validated() -> [String?] {
        (1..<Int(CommandLine.argc)).map { i in
            guard let p = CommandLine.unsafeArgv[i] else { return nil }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p))
            return String(validating: bytes, as: UTF8.self)
        }
    }
}
