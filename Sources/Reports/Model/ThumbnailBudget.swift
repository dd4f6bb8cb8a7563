/// How many image bytes an HTML report may carry inline, and which attachments get them.
///
/// Screenshots (PNG, JPEG) are shown as thumbnails inside the single HTML file, as `data:` URIs,
/// so the file stays one file an auditor can keep. A budget keeps it small: each image at most
/// `perImage` bytes, all together at most `total`, taken in report order (scenario, then evidence
/// order). A larger image, one past the budget, a retracted one or one whose bytes are not really
/// PNG or JPEG is listed with the command that exports it. Same evidence, same choice: the
/// report stays byte-identical.
package struct ThumbnailBudget: Sendable, Equatable {
    /// The most bytes one image may have to be shown inline.
    package var perImage: Int
    /// The most image bytes the whole report may carry inline.
    package var total: Int

    /// The built-in budget: 512 KiB per image, 2 MiB in all.
    package static let standard = ThumbnailBudget(perImage: 512 * 1024, total: 2 * 1024 * 1024)

    static let imageTypes: Set<String> = ["image/png", "image/jpeg", "image/jpg"]

    /// Creates a budget.
    package init(perImage: Int, total: Int) {
        self.perImage = perImage
        self.total = total
    }

    /// `model` with the inline images set, reading each chosen attachment's bytes with `blob` (by SHA-256).
    ///
    /// Only attachments the budget admits by their recorded size are read at all.
    package func apply(to model: ReportModel, blob: (String) throws -> [UInt8]?) rethrows -> ReportModel {
        var m = model
        var used = 0
        for si in m.scenarios.indices {
            for ei in m.scenarios[si].evidence.indices {
                let e = m.scenarios[si].evidence[ei]
                guard var a = e.attachment else { continue }
                defer { m.scenarios[si].evidence[ei].attachment = a }
                a.inlineImage = nil
                let size = a.size ?? 0
                if e.retracted { a.notInline = .retracted; continue }
                guard a.isImage, size > 0 else { a.notInline = .notImage; continue }
                guard size <= perImage else { a.notInline = .tooLarge; continue }
                guard used + size <= total else { a.notInline = .overBudget; continue }
                guard let bytes = try blob(a.sha256), bytes.count == size, let type = Self.sniff(bytes) else { a.notInline = .notImage; continue }
                a.inlineImage = InlineImage(mediaType: type, bytes: bytes)
                used += size
            }
        }
        return m
    }

    /// `image/png` or `image/jpeg` when the bytes start like one; nil otherwise.
    static func sniff(_ b: [UInt8]) -> String? {
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        return nil
    }
}
