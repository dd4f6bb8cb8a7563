import Checks
import Evidence
import Foundation
import StrictJSON

/// Runs the host's own token command (`--token-command CMD`) to obtain a customer token.
///
/// growcert runs `CMD CUSTOMER_ID [TTL_SECONDS]` through `/bin/sh` and reads
/// `{"customerToken": ..., "expiresAt": ...}` from its standard output. The
/// token stays in memory; nothing the command prints is ever stored or echoed.
package struct TokenCommandRunner: Sendable {
    /// The shell command line, run through `/bin/sh` with the customer id (and TTL) appended as arguments.
    package let command: String

    /// A runner of the shell command `command`.
    package init(command: String) { self.command = command }

    /// The failure of the token command, without anything it printed.
    package struct Failure: Error, CustomStringConvertible {
        /// What failed, without anything the command printed.
        package let description: String
        /// The command's exit status, when it ran and failed (127: not found by /bin/sh).
        package var status: Int32? = nil

        /// A failure saying `description`, with the command's exit status when it ran.
        package init(description: String, status: Int32? = nil) {
            self.description = description
            self.status = status
        }
    }

    /// Runs the command for `customerId` (with `ttlSeconds` when given) and returns the token it printed, kept in memory
    /// only. Throws `Failure` when it cannot start, exits non-zero, or prints no `customerToken` and `expiresAt` strings.
    package func issue(customerId: String, ttlSeconds: Int?) async throws -> IssuedCustomerToken {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command + " \"$@\"", "growcert-token-command", customerId] + (ttlSeconds.map { [String($0)] } ?? [])
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw Failure(description: "The token command could not be started: \(error.localizedDescription).")
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "The token command exited with status \(process.terminationStatus) for customer '\(customerId)'.",
                          status: process.terminationStatus)
        }
        guard let json = try? JSONValue.parse(data), let token = json["customerToken"]?.stringValue, !token.isEmpty,
              let expiresAt = json["expiresAt"]?.stringValue else {
            throw Failure(description: "The token command did not print a JSON object with the string fields customerToken and expiresAt for customer '\(customerId)'.")
        }
        return IssuedCustomerToken(customerToken: token, expiresAt: expiresAt)
    }
}
