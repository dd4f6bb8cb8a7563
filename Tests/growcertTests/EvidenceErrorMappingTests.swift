import Evidence
import Testing
@testable import growcert

/// The evidence store's errors become messages and exit codes in one place, the CLI (`CLI.describe`).
@Suite struct EvidenceErrorMappingTests {
    @Test("Evidence errors map to the documented exit codes", arguments: [
        (EvidenceError.databaseMissing(path: "x"), Int32(66)), (.fileMissing(path: "x"), 66), (.maskKeyMissing(keyPath: "k"), 66),
        (.unknown(what: "run", value: "r9", known: []), 65), (.invalidValue(field: "f", value: "v", why: "w"), 65),
        (.secretRefused(field: "f", what: "w"), 65), (.conflict("c"), 65), (.databaseTooNew(path: "x", found: 9, supported: 2), 65),
        (.notAnEvidenceDatabase(path: "x"), 65), (.fileTooLarge(path: "x", size: 2, limit: 1), 65),
        (.io("x"), 74), (.internalFailure("x"), 70),
    ])
    func exitCodes(error: EvidenceError, code: Int32) {
        #expect(CLI.describe(error).1 == code)
    }

    @Test("The command line adds the flags that fix an error; the store's own text names none")
    func flagsAreTheCLIs() {
        let missing = EvidenceError.databaseMissing(path: "e.sqlite")
        #expect(!missing.description.contains("--db") && !missing.description.contains("growcert init"))
        #expect(CLI.describe(missing).0 == "No evidence database at 'e.sqlite'. Create one with 'growcert init --db e.sqlite', or point --db (or GROWCERT_DB) at an existing one.")
        let large = EvidenceError.fileTooLarge(path: "big.png", size: 30_000_000, limit: 26_214_400)
        #expect(!large.description.contains("--max-size"))
        // Only `evidence add attachment` has --max-size: that command adds it (StoreOperatorTests), the mapping does not.
        #expect(CLI.describe(large).0 == "'big.png' is 28.61 MiB (30000000 bytes), over the limit of 25 MiB (26214400 bytes). Nothing was written.")
        #expect(CLI.describe(EvidenceError.maskKeyMissing(keyPath: "e.key")).0.hasSuffix(" Or set GROWCERT_MASK_KEY to the key's 64 hexadecimal digits."))
    }
}
