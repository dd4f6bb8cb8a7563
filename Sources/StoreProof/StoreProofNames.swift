/// Names that other parts of growcert must match exactly.
///
/// The growcert emulator signs its transactions with a single self-signed
/// ES256 certificate whose subject common name is `emulatorCommonName`, and
/// writes `emulatorEnvironment` into the payload's `environment`. The
/// verifier classifies exactly that combination as `emulatorSigned`.
package enum StoreProofNames {
    /// The subject common name of the growcert emulator's self-signed signing certificate.
    package static let emulatorCommonName = "growcert Sandbox Emulator"

    /// The `environment` value the growcert emulator writes into its signed transactions.
    package static let emulatorEnvironment = "Emulator"

    /// The subject common name of the certificate StoreKit Testing in Xcode signs with.
    package static let xcodeCommonName = "StoreKit Testing in Xcode"

    /// The `environment` value StoreKit Testing in Xcode writes into its transactions.
    package static let xcodeEnvironment = "Xcode"

    /// Apple's marker extension on the App Store receipt-signing leaf certificate.
    package static let appleLeafMarkerOID = "1.2.840.113635.100.6.11.1"

    /// Apple's marker extension on the Apple Worldwide Developer Relations intermediate certificate.
    package static let appleIntermediateMarkerOID = "1.2.840.113635.100.6.2.1"
}
