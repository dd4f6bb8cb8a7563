internal import CCrypto
import Foundation

/// Builds the `SandboxError.crypto` for a failed OpenSSL call, with OpenSSL's own reason.
func openSSLFailure(_ step: String) -> SandboxError {
    let code = ERR_get_error()
    guard code != 0 else { return .crypto(step) }
    var buffer = [CChar](repeating: 0, count: 256)
    ERR_error_string_n(code, &buffer, buffer.count)
    ERR_clear_error()
    let reason = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    return .crypto("\(step): \(reason)")
}
