import QRCode
import Testing

/// `terminalText` of the fixture `single-byte-l` ("a" at level L, version 1), written out by hand from its rows.
@Suite struct QRCodeTerminalTextTests {
    private func code() throws -> QRCode {
        try QRCode(encoding: Array("a".utf8), errorCorrection: .low)
    }

    @Test func darkModulesAsGlyphsForALightTerminal() throws {
        let text = try code().terminalText(quietZone: 1, inverted: false)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines == [
            " ▄▄▄▄▄▄▄  ▄ ▄▄ ▄▄▄▄▄▄▄ ",
            " █ ▄▄▄ █ ▄█▀█▄ █ ▄▄▄ █ ",
            " █ ███ █  ▀▄▀▄ █ ███ █ ",
            " █▄▄▄▄▄█ ▄ ▄ █ █▄▄▄▄▄█ ",
            " ▄▄▄ ▄▄▄▄██▄█▀▄▄   ▄   ",
            "   ▀ █▀▄█▄▄█ ▄ ▀ ▄ ▀▀▄ ",
            " ██ ▀▄█▄▄ ▀▀ ▄ █ ▄ █ ▄ ",
            " ▄▄▄▄▄▄▄ █▀ █ █▄█ █▄██ ",
            " █ ▄▄▄ █ █▀██▀█▄█▀█▄ ▄ ",
            " █ ███ █ ▄▄▀ ▄ ▀ ▄ ▀▀▄ ",
            " █▄▄▄▄▄█ ██  ▄ █ ▄ ██▄ ",
            "                       ",
            "",
        ])
    }

    @Test func lightModulesAsGlyphsForADarkTerminalByDefault() throws {
        let text = try code().terminalText(quietZone: 1)
        #expect(text == (try code().terminalText(quietZone: 1, inverted: true)))
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false) == [
            "█▀▀▀▀▀▀▀██▀█▀▀█▀▀▀▀▀▀▀█",
            "█ █▀▀▀█ █▀ ▄ ▀█ █▀▀▀█ █",
            "█ █   █ ██▄▀▄▀█ █   █ █",
            "█ ▀▀▀▀▀ █▀█▀█ █ ▀▀▀▀▀ █",
            "█▀▀▀█▀▀▀▀  ▀ ▄▀▀███▀███",
            "███▄█ ▄▀ ▀▀ █▀█▄█▀█▄▄▀█",
            "█  █▄▀ ▀▀█▄▄█▀█ █▀█ █▀█",
            "█▀▀▀▀▀▀▀█ ▄█ █ ▀ █ ▀  █",
            "█ █▀▀▀█ █ ▄  ▄ ▀ ▄ ▀█▀█",
            "█ █   █ █▀▀▄█▀█▄█▀█▄▄▀█",
            "█ ▀▀▀▀▀ █  ██▀█ █▀█  ▀█",
            "▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀▀",
            "",
        ])
    }

    @Test(arguments: [0, 2, 4])
    func quietZoneSurroundsTheSymbol(quietZone: Int) throws {
        let code = try code()
        let lines = code.terminalText(quietZone: quietZone).split(separator: "\n").map(Array.init)
        let width = code.size + 2 * quietZone
        #expect(lines.count == (width + 1) / 2)
        #expect(lines.allSatisfy { $0.count == width })
        // Read the drawing back, half block by half block: glyph halves are light modules by default.
        for row in 0..<width {
            for column in 0..<width {
                let cell = lines[row / 2][column]
                let glyph = row % 2 == 0 ? "█▀".contains(cell) : "█▄".contains(cell)
                let dark = code.isDark(x: column - quietZone, y: row - quietZone)
                #expect(glyph == !dark, "row \(row), column \(column)")
            }
        }
    }

    @Test func negativeQuietZoneCountsAsNone() throws {
        #expect(try code().terminalText(quietZone: -3) == code().terminalText(quietZone: 0))
    }
}
