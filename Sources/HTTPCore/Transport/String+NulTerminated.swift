extension String {
    /// The UTF-8 text of a C character buffer up to its first NUL (the whole buffer when it has none).
    ///
    /// What `String(cString:)` did for arrays before Swift deprecated it; invalid UTF-8 becomes U+FFFD.
    init(nulTerminated buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
