import Evidence

/// `growcert completion bash|zsh|fish`: a shell completion script made from the command table.
enum CompletionCommand {
    static let shells = CompletionScript.Shell.allCases.map(\.rawValue)

    static let all = [
        Command(path: ["completion"], summary: "print a shell completion script (bash, zsh or fish)", positionals: ["SHELL"],
                discussion: """
                Shells: \(shells.joined(separator: ", ")). For example:
                  growcert completion bash > /usr/share/bash-completion/completions/growcert
                  growcert completion zsh > "${fpath[1]}/_growcert"
                  growcert completion fish > ~/.config/fish/completions/growcert.fish
                or for this shell only: source <(growcert completion bash). 'make install' installs all three.
                """) { inv in
            let name = try inv.positional(0, "SHELL")
            guard let shell = CompletionScript.Shell(rawValue: name) else {
                throw CLIError.usage("Unknown shell '\(name)'." + Suggestion.sentence(for: name, among: shells) + " Shells: \(shells.joined(separator: ", ")).", command: "completion")
            }
            inv.console.out(CompletionScript.render(shell))
            return ExitCode.success
        },
    ]
}
