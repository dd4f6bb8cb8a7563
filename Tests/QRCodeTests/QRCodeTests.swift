import QRCode
import Testing

@Suite struct QRCodeTests {
    @Test(arguments: [
        (QRCode.ErrorCorrection.low, 271), (.medium, 213), (.quartile, 151), (.high, 119),
    ])
    func theLargestInputFitsVersionTenAndOneMoreByteThrows(level: QRCode.ErrorCorrection, max: Int) throws {
        let fits = try QRCode(encoding: [UInt8](repeating: 0x41, count: max), errorCorrection: level)
        #expect(fits.version == 10)
        #expect(throws: QRCodeError.tooLong(bytes: max + 1, max: max)) {
            try QRCode(encoding: [UInt8](repeating: 0x41, count: max + 1), errorCorrection: level)
        }
    }

    @Test func tooLongInputIsRefusedWithAClearMessage() {
        let error = #expect(throws: QRCodeError.self) {
            try QRCode(encoding: [UInt8](repeating: 0x61, count: 300))
        }
        #expect(error?.description == "Cannot make a QR code of 300 bytes: at this error correction level a QR code "
            + "of version 10 or lower holds at most 213 bytes. Encode a shorter text or choose a lower error "
            + "correction level.")
    }

    @Test func aRunNonceFitsVersionThreeAtTheDefaultLevel() throws {
        let code = try QRCode(encoding: Array("3f2b8c1e-9d4a-4e6b-a7c5-0e1f2d3c4b5a".utf8))
        #expect(code.errorCorrection == .medium)
        #expect(code.version == 3)
        #expect(code.size == 29)
    }

    @Test func theSameBytesGiveTheSameSymbol() throws {
        let nonce = "0b6f3a52-7c1d-4f8e-9a2b-c3d4e5f60718"
        let first = try QRCode(encoding: Array(nonce.utf8))
        let second = try QRCode(encoding: Array(String(nonce).utf8))
        #expect(first == second)
        #expect(first.terminalText() == second.terminalText())
        let other = try QRCode(encoding: Array("0b6f3a52-7c1d-4f8e-9a2b-c3d4e5f60719".utf8))
        #expect(first != other)
    }

    @Test func modulesOutsideTheSymbolAreLight() throws {
        let code = try QRCode(encoding: Array("a".utf8), errorCorrection: .low)
        #expect(code.isDark(x: 0, y: 0))
        #expect(!code.isDark(x: -1, y: 0))
        #expect(!code.isDark(x: 0, y: code.size))
        #expect(!code.isDark(x: code.size, y: code.size - 1))
    }
}
