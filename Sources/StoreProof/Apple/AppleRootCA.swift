import Foundation

/// Apple Root CA - G3, the only anchor for App Store signed transactions.
///
/// Embedded rather than read from the system trust store, so that a machine
/// whose store was changed cannot make growcert trust another root. The
/// bytes come from Apple PKI (apple.com/certificateauthority); a test checks
/// their SHA-256 against `sha256Hex`.
package enum AppleRootCA {
    /// The SHA-256 of the DER certificate, as published by Apple, in lowercase hex.
    package static let sha256Hex = "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179"

    /// The subject's common name, used in refusal messages.
    package static let commonName = "Apple Root CA - G3"

    /// The DER bytes of Apple Root CA - G3 (583 bytes, valid 2014-04-30 to 2039-04-30).
    package static var g3DER: Data {
        // The literal is a compile-time constant checked by a test; decoding it cannot fail at run time
        // unless the source is edited, and then the test fails. An empty Data makes every chain refuse.
        Data(base64Encoded: g3Base64) ?? Data()
    }

    private static let g3Base64 =
        "MIICQzCCAcmgAwIBAgIILcX8iNLFS5UwCgYIKoZIzj0EAwMwZzEbMBkGA1UEAwwSQXBwbGUgUm9v"
        + "dCBDQSAtIEczMSYwJAYDVQQLDB1BcHBsZSBDZXJ0aWZpY2F0aW9uIEF1dGhvcml0eTETMBEGA1UE"
        + "CgwKQXBwbGUgSW5jLjELMAkGA1UEBhMCVVMwHhcNMTQwNDMwMTgxOTA2WhcNMzkwNDMwMTgxOTA2"
        + "WjBnMRswGQYDVQQDDBJBcHBsZSBSb290IENBIC0gRzMxJjAkBgNVBAsMHUFwcGxlIENlcnRpZmlj"
        + "YXRpb24gQXV0aG9yaXR5MRMwEQYDVQQKDApBcHBsZSBJbmMuMQswCQYDVQQGEwJVUzB2MBAGByqG"
        + "SM49AgEGBSuBBAAiA2IABJjpLz1AcqTtkyJygRMc3RCV8cWjTnHcFBbZDuWmBSp3ZHtfTjjTuxxE"
        + "tX/1H7YyYl3J6YRbTzBPEVoA/VhYDKX1DyxNB0cTddqXl5dvMVztK517IDvYuVTZXpmkOlEKMaNC"
        + "MEAwHQYDVR0OBBYEFLuw3qFYM4iapIqZ3r6966/ayySrMA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0P"
        + "AQH/BAQDAgEGMAoGCCqGSM49BAMDA2gAMGUCMQCD6cHEFl4aXTQY2e3v9GwOAEZLuN+yRhHFD/3m"
        + "eoyhpmvOwgPUnPWTxnS4at+qIxUCMG1mihDK1A3UT82NQz60imOlM27jbdoXt2QfyFMm+YhidDkL"
        + "F1vLUagM6BgD56KyKA=="
}
