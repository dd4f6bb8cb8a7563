import Foundation
import Testing

@Suite("growcert end to end: shell completion, the man page and make install")
struct ShellIntegrationTests {
    /// Writes `growcert completion SHELL` into the test directory and returns its path.
    static func script(_ g: Growcert, _ shell: String) throws -> String {
        let o = try g.run(["completion", shell], db: false)
        try #require(o.code == 0, "\(o)")
        let path = g.path("growcert.\(shell)")
        try o.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// What the bash completion function offers for a command line whose last word is being typed.
    static func bashCompletions(_ g: Growcert, script: String, line: [String]) throws -> [String] {
        let words = line.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let o = try g.execute(try Growcert.tool(["bash"], install: "apt-get install bash"),
                              ["-c", "source \"$1\" && COMP_WORDS=(\(words)) && COMP_CWORD=\(line.count - 1) && _growcert && printf '%s\\n' \"${COMPREPLY[@]}\"", "bash", script],
                              env: [:])
        try #require(o.code == 0, "\(o)")
        return o.stdout.split(separator: "\n").map(String.init)
    }

    @Test("The bash script parses and completes commands, subcommands, options and known values from the command table", arguments: [
        (["growcert", "ev"], ["evidence"]),
        (["growcert", "evidence", "add", ""], ["transaction", "store-notification", "receipt", "attachment", "note"]),
        (["growcert", "--db", "x.sqlite", "run", ""], ["start", "finish", "abandon", "list", "show", "share", "unshare"]),
        (["growcert", "report", "render", "--format", ""], ["md", "html", "junit", "json", "all"]),
        (["growcert", "report", "render", "--lang", "zh"], ["zh-Hans"]),
        (["growcert", "run", "list", "--j"], ["--json"]),
        (["growcert", "evidence", "import", "--d"], ["--dry-run", "--db"]),
        (["growcert", "completion", "--campaign", ""], []),
        (["growcert", "help", "jour"], ["journal"]),
    ] as [([String], [String])])
    func bashCompletes(line: [String], expected: [String]) throws {
        let g = try Growcert()
        let script = try Self.script(g, "bash")
        let syntax = try g.execute(try Growcert.tool(["bash"], install: "apt-get install bash"), ["-n", script], env: [:])
        #expect(syntax.code == 0, "\(syntax)")
        #expect(Set(try Self.bashCompletions(g, script: script, line: line)) == Set(expected))
    }

    @Test("The bash script completes file names for a file option")
    func bashCompletesFiles() throws {
        let g = try Growcert()
        let script = try Self.script(g, "bash")
        try "x".write(toFile: g.path("shot.png"), atomically: true, encoding: .utf8)
        #expect(try Self.bashCompletions(g, script: script, line: ["growcert", "evidence", "add", "attachment", "--file", "sho"]) == ["shot.png"])
    }

    @Test("The zsh script parses and, with zsh's completion builtins stubbed, offers the same words")
    func zshCompletes() throws {
        let g = try Growcert()
        let script = try Self.script(g, "zsh")
        let zsh = try Growcert.tool(["zsh"], install: "apt-get install zsh (make test installs it)")
        #expect(try g.execute(zsh, ["-n", script], env: [:]).code == 0)
        let o = try g.execute(zsh, ["-f", "-c", """
            compdef() { :; }; compadd() { [[ "$1" == -- ]] && shift; print -l -- "$@"; }; _files() { print FILES; }
            source "$1"
            words=(growcert report render --format ''); CURRENT=5; _growcert
            words=(growcert evidence ''); CURRENT=3; _growcert
            words=(growcert evidence add attachment --file ''); CURRENT=6; _growcert
            """, "zsh", script], env: [:])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout.split(separator: "\n").map(String.init) == ["md", "html", "junit", "json", "all",
                                                                     "add", "retract", "list", "show", "export", "import", "FILES"])
    }

    @Test("The fish script parses and 'complete -C' offers commands, options and known values")
    func fishCompletes() throws {
        let g = try Growcert()
        let script = try Self.script(g, "fish")
        let fish = try Growcert.tool(["fish"], install: "apt-get install fish (make test installs it)")
        let syntax = try g.execute(fish, ["--no-execute", script], env: [:])
        #expect(syntax.code == 0, "\(syntax)")
        func complete(_ line: String) throws -> [String] {
            let o = try g.execute(fish, ["--no-config", "-c", "source $argv[1]; complete -C '\(line)'", script], env: [:])
            try #require(o.code == 0, "\(o)")
            return o.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try complete("growcert report render --format ") == ["all", "html", "json", "junit", "md"])
        #expect(try Set(complete("growcert run ")) == ["abandon", "finish", "list", "share", "show", "start", "unshare"])
        #expect(try complete("growcert evidence import --dr") == ["--dry-run"])
    }

    @Test("Every shell's script names every command of the table")
    func scriptsNameEveryCommand() throws {
        let g = try Growcert()
        let names = try HelpAndVerifyTests.commandNames(g)
        for shell in ["bash", "zsh", "fish"] {
            let text = try String(contentsOfFile: try Self.script(g, shell), encoding: .utf8)
            for name in names { #expect(text.contains("'\(name)'") || text.contains("\\'\(name)\\'"), "\(shell): \(name)") }
        }
        let bad = try g.run(["completion", "bsh"], db: false)
        #expect(bad.code == 64)
        #expect(bad.stderr == "growcert: Unknown shell 'bsh'. Did you mean 'bash'? Shells: bash, zsh, fish.\nSee 'growcert completion --help'.\n")
    }

    @Test("The man page is roff that groff and mandoc accept, with every command and option of the table")
    func manPageIsValidRoff() throws {
        let g = try Growcert()
        let o = try g.run(["man"], db: false, env: ["SOURCE_DATE_EPOCH": "1767225600"])
        #expect(o.code == 0, "\(o)")
        let page = g.path("growcert.1")
        try o.stdout.write(toFile: page, atomically: true, encoding: .utf8)
        #expect(o.stdout.contains(#".TH GROWCERT 1 "2026-01-01" "growcert 0.1.0" "User Commands""#), "\(o.stdout.prefix(300))")
        for name in try HelpAndVerifyTests.commandNames(g) {
            #expect(o.stdout.contains(".SS \(name.replacingOccurrences(of: "-", with: "\\-"))\n"), "\(name)")
        }
        #expect(o.stdout.contains("\\fB\\-\\-dry\\-run\\fR"))
        #expect(o.stdout.contains("(one of: md, html, junit, json, all)"))

        let groff = try Growcert.tool(["groff"], install: "apt-get install groff-base (make test installs it)")
        let rendered = try g.execute(groff, ["-man", "-Tutf8", "-ww", "-z", page], env: [:])
        #expect(rendered.code == 0 && rendered.stderr == "", "\(rendered)")
        let mandoc = try Growcert.tool(["mandoc"], install: "apt-get install mandoc (make test installs it)")
        let lint = try g.execute(mandoc, ["-man", "-T", "lint", "-W", "warning", page], env: [:])
        #expect(lint.code == 0 && lint.stdout == "" && lint.stderr == "", "\(lint)")
        let man = try Growcert.tool(["man"], install: "apt-get install man-db (make test installs it)")
        let shown = try g.execute(man, ["-l", page], env: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "100"])
        #expect(shown.code == 0, "\(shown)")
        #expect(shown.stdout.contains("evidence add attachment"), "\(shown.stdout.prefix(500))")
    }

    @Test("make install PREFIX=… BIN=… installs the binary, the man page and the three completion scripts, and the binary runs")
    func makeInstallInstallsEverything() throws {
        let g = try Growcert()
        let prefix = g.path("prefix")
        let make = try Growcert.tool(["make"], install: "apt-get install make")
        let o = try g.execute(make, ["-s", "-C", Growcert.packageRoot.path, "install", "PREFIX=\(prefix)", "BIN=\(Growcert.binary)"], env: [:])
        #expect(o.code == 0, "\(o)")
        #expect(o.stdout.contains("Add it to PATH:  export PATH=\"\(prefix)/bin:$PATH\""), "\(o)")
        for file in ["bin/growcert", "share/man/man1/growcert.1", "share/bash-completion/completions/growcert",
                     "share/zsh/site-functions/_growcert", "share/fish/vendor_completions.d/growcert.fish"] {
            #expect(FileManager.default.fileExists(atPath: "\(prefix)/\(file)"), "\(file)")
        }
        #expect(FileManager.default.isExecutableFile(atPath: "\(prefix)/bin/growcert"))
        let version = try g.execute("/bin/sh", ["-c", "PATH=\"$P/bin:$PATH\" growcert --version"], env: ["P": prefix])
        #expect(version.stdout == "growcert 0.1.0\n", "\(version)")
        let missing = try g.execute(make, ["-s", "-C", Growcert.packageRoot.path, "install", "PREFIX=\(prefix)", "BIN=\(g.path("none"))"], env: [:])
        #expect(missing.code != 0)
        #expect(missing.stderr.contains("install: no growcert binary at '\(g.path("none"))'"), "\(missing)")
    }
}
