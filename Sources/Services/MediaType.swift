import Foundation

/// Media types of attachments: guessed from a file name, or checked when given (the CLI's `--media-type`, the web
/// view's `Content-Type`).
package enum MediaType {
    /// The media type a file name suggests; `application/octet-stream` when the extension is not known.
    package static func guess(filename: String) -> String {
        switch URL(fileURLWithPath: filename).pathExtension.lowercased() {
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "heic": return "image/heic"
        case "gif": return "image/gif"
        case "mp4": return "video/mp4"
        case "mov": return "video/quicktime"
        case "txt", "log": return "text/plain"
        case "json", "har": return "application/json"
        case "pdf": return "application/pdf"
        case "xml": return "application/xml"
        case "html", "htm": return "text/html"
        case "md": return "text/markdown"
        case "zip": return "application/zip"
        default: return "application/octet-stream"
        }
    }

    /// `text` as a bare media type (`type/subtype`, lower case, parameters dropped); nil when it is not one.
    package static func bare(_ text: String) -> String? {
        let bare = (text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "")
            .trimmingCharacters(in: .whitespaces).lowercased()
        let parts = bare.split(separator: "/", omittingEmptySubsequences: false)
        let token = Set("abcdefghijklmnopqrstuvwxyz0123456789!#$&^_.+-")
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 127 && $0.allSatisfy(token.contains) }) else { return nil }
        return bare
    }

    /// Whether a browser may show an item of `mediaType` inline: raster images and videos. Everything else
    /// (SVG and HTML included, which can carry script) is sent as a download.
    package static func showsInline(_ mediaType: String) -> Bool {
        ["image/png", "image/jpeg", "image/gif", "image/webp", "video/mp4", "video/webm", "video/quicktime"].contains(mediaType)
    }
}
