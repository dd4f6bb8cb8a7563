import Foundation

/// `growcert man`: the growcert(1) man page, in roff, made from the command table.
enum ManCommand {
    static let all = [
        Command(path: ["man"], summary: "print the growcert(1) man page (roff), made from the command table",
                discussion: """
                Read it with: growcert man | man -l -
                'make man' writes growcert.1; 'make install' installs it in $(PREFIX)/share/man/man1.
                The date on the page is SOURCE_DATE_EPOCH when set (for reproducible builds), else today.
                """) { inv in
            let seconds = inv.environment["SOURCE_DATE_EPOCH"].flatMap(TimeInterval.init)
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd"
            inv.console.exact(ManPage.render(date: formatter.string(from: seconds.map { Date(timeIntervalSince1970: $0) } ?? inv.clock())))
            return ExitCode.success
        },
    ]
}
