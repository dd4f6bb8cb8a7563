import SecretShapes

/// The configuration checks every vendor's emulator applies; each throws `SandboxError.invalidConfiguration`.
enum ConfigurationRules {
    /// `key` must be `prefix` followed by key characters (letters, digits, `_`, `-`); `name` says which key.
    static func requireKeyShape(_ key: String, prefix: String, name: String) throws {
        let body = key.utf8.dropFirst(prefix.utf8.count)
        guard key.hasPrefix(prefix), !body.isEmpty, body.allSatisfy(SecretKeyShape.isKeyCharacter) else {
            throw SandboxError.invalidConfiguration(
                "the \(name) must be '\(prefix)' followed by letters, digits, '_' or '-'. Leave it out to get a random one.")
        }
    }

    /// What every emulator's configuration shares: a reverse-DNS bundle id and a usable body limit.
    static func requireCommon(bundleId: String, maxBodyBytes: Int) throws {
        try requireBundleId(bundleId)
        try requireMaxBodyBytes(maxBodyBytes)
    }

    /// A bundle id is a reverse-DNS name.
    static func requireBundleId(_ bundleId: String) throws {
        guard !bundleId.isEmpty, bundleId.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else {
            throw SandboxError.invalidConfiguration("bundle ID '\(bundleId)' is not a reverse-DNS name such as 'com.example.app'.")
        }
    }

    /// Bodies of at least 1 KiB must be accepted.
    static func requireMaxBodyBytes(_ maxBodyBytes: Int) throws {
        guard maxBodyBytes >= 1024 else {
            throw SandboxError.invalidConfiguration("maxBodyBytes \(maxBodyBytes) is too small; use at least 1024.")
        }
    }
}
