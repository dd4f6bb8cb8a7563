extension QRCode {
    /// The code as text for a terminal: two module rows per line, drawn with the half blocks `▀`, `▄`, `█` and
    /// spaces, with a light quiet zone of `quietZone` modules on every side; every line ends with a newline.
    ///
    /// A character's glyph shows in the terminal's text colour, a space in its background colour. By default
    /// (`inverted: true`) the glyphs draw the *light* modules and the quiet zone, and spaces the dark modules. On a
    /// dark-background terminal, which most developers and QA testers use, the code then looks like a printed one,
    /// dark on light, and every phone scanner reads it. On a light-background terminal the same text shows a
    /// colour-reversed code, which the iOS camera and Google Lens read too, though some older scanner apps do not;
    /// there pass `inverted: false`, which draws the dark modules as glyphs.
    ///
    /// The standard asks for a quiet zone of four modules; two (the default) keeps the code small on a terminal
    /// and phones read it. A negative `quietZone` counts as zero. The line below the last module row has its lower
    /// half in the terminal's background colour, since a code has an odd number of rows.
    package func terminalText(quietZone: Int = 2, inverted: Bool = true) -> String {
        let margin = max(0, quietZone)
        let extent = size + 2 * margin
        // Whether the cell at (column, row) of the drawing, quiet zone included, shows a glyph.
        func ink(_ column: Int, _ row: Int) -> Bool {
            guard row < extent else { return false }
            return isDark(x: column - margin, y: row - margin) != inverted
        }
        var text = ""
        for row in stride(from: 0, to: extent, by: 2) {
            for column in 0..<extent {
                switch (ink(column, row), ink(column, row + 1)) {
                case (true, true): text += "█"
                case (true, false): text += "▀"
                case (false, true): text += "▄"
                case (false, false): text += " "
                }
            }
            text += "\n"
        }
        return text
    }
}
