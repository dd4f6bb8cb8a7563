import Foundation

/// Looks for secret bytes in files modified recently, within fixed bounds.
///
/// Used by `switch.restart-needs-auth` to show the old session's token was not
/// persisted. Only regular files modified at or after `since` are read; symbolic
/// links are not followed. The bounds keep the scan fast on a busy temporary
/// directory; when one is reached the scan says so rather than claiming more.
struct GrooveGrowDiskScanner {
    /// Directory entries visited per root.
    var maxEntriesPerRoot = 50_000
    /// Files read in total.
    var maxFiles = 2_000
    /// Larger files are read only up to this many bytes.
    var maxFileBytes = 8 * 1_048_576

    struct Report {
        var hits: [String] = []
        var filesRead = 0
        var truncated = false
    }

    func scan(roots: [URL], since: Date, for needles: [Data]) -> Report {
        var report = Report()
        let needles = needles.filter { !$0.isEmpty }
        guard !needles.isEmpty else { return report }
        let keys: [URLResourceKey] = [.isRegularFileKey, .isSymbolicLinkKey, .contentModificationDateKey, .fileSizeKey]
        for root in roots {
            guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys, options: [],
                                                                  errorHandler: { _, _ in true }) else { continue }
            var visited = 0
            while let url = enumerator.nextObject() as? URL {
                visited += 1
                if visited > maxEntriesPerRoot || report.filesRead >= maxFiles {
                    report.truncated = true
                    break
                }
                guard let values = try? url.resourceValues(forKeys: Set(keys)) else { continue }
                if values.isSymbolicLink == true {
                    enumerator.skipDescendants()
                    continue
                }
                guard values.isRegularFile == true, let modified = values.contentModificationDate, modified >= since else { continue }
                guard let handle = try? FileHandle(forReadingFrom: url) else { continue }
                let data = (try? handle.read(upToCount: maxFileBytes)) ?? nil
                try? handle.close()
                report.filesRead += 1
                if let data, needles.contains(where: { data.range(of: $0) != nil }) {
                    report.hits.append(url.path)
                }
            }
        }
        return report
    }
}
