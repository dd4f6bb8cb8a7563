import ArgumentsKit

/// Shell completion scripts, generated from the command table (`growcert completion bash|zsh|fish`).
///
/// Everything a script knows — the command words, each command's options, which take a value,
/// and the values where they are a known list — comes from `CLI.commands` and `GlobalOptions`,
/// so a new command or option completes without touching this file.
enum CompletionScript {
    enum Shell: String, CaseIterable, Sendable { case bash, zsh, fish }

    /// The script for `shell`.
    static func render(_ shell: Shell, commands: [Command] = CLI.commands) -> String {
        let table = Table(commands: commands)
        switch shell {
        case .bash: return bash(table)
        case .zsh: return zsh(table)
        case .fish: return fish(table)
        }
    }

    /// What the scripts are made of, read once from the table.
    struct Table {
        /// Each command-word prefix (`""`, `evidence`, `evidence add`) and the words that may follow it.
        let next: [(prefix: String, words: [String])]
        let commands: [Command]

        init(commands: [Command]) {
            self.commands = commands
            var next: [String: [String]] = [:]
            var order: [String] = []
            for c in commands {
                for depth in 0..<c.path.count {
                    let prefix = c.path.prefix(depth).joined(separator: " ")
                    if next[prefix] == nil { next[prefix] = []; order.append(prefix) }
                    if !next[prefix]!.contains(c.path[depth]) { next[prefix]!.append(c.path[depth]) }
                }
            }
            if !(next[""] ?? []).contains("help") { next["", default: []].append("help") }
            self.next = order.map { ($0, next[$0]!) }
        }

        /// The options of a command, its own first, then the global ones.
        func options(_ c: Command) -> [OptionSpec] { c.options + GlobalOptions.all }

        /// Every option that takes a value somewhere, for skipping values while reading the words typed.
        var valueOptions: [String] {
            Array(Set((commands.flatMap(\.options) + GlobalOptions.all).filter { $0.value != nil }.map(\.name))).sorted()
        }
    }

    /// Whether an option's value is a path (so the shell completes file names).
    static func takesPath(_ o: OptionSpec) -> Bool {
        guard let v = o.value else { return false }
        return ["FILE", "PATH", "DIR"].contains(v)
    }

    static func takesPath(positional: String) -> Bool { positional.trimmingCharacters(in: ["?"]) == "FILE" }

    /// Which recorded ids an option's value is (`__complete` lists them from the database): nil for none.
    static func idKind(_ o: OptionSpec) -> CompleteCommand.Kind? {
        switch o.name {
        case "--campaign": return .campaigns
        case "--run": return .runs
        case "--scenario": return .scenarios
        case "--device": return .devices
        case "--account": return .accounts
        default: return nil
        }
    }

    /// Which recorded ids a command's positional `ID` is: nil for none.
    static func idKind(positionalOf c: Command) -> CompleteCommand.Kind? {
        guard c.positionals.contains(where: { $0.hasPrefix("ID") }) else { return nil }
        switch c.path.first {
        case "run": return .runs
        case "campaign": return .campaigns
        default: return nil
        }
    }

    /// Single-quoted for a POSIX shell.
    static func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// The shell functions bash and zsh share: the words after a prefix, a command's options, an option's values.
    static func sharedFunctions(_ t: Table) -> String {
        var s = "# The words that may follow the command words typed so far.\n__growcert_next() {\n    case \"$1\" in\n"
        for (prefix, words) in t.next { s += "        \(quote(prefix))) echo \(quote(words.joined(separator: " "))) ;;\n" }
        s += "    esac\n}\n\n# The options of a command (the global ones for anything else).\n__growcert_options() {\n    case \"$1\" in\n"
        for c in t.commands { s += "        \(quote(c.name))) echo \(quote(t.options(c).map(\.name).joined(separator: " "))) ;;\n" }
        s += "        *) echo \(quote((GlobalOptions.all + GlobalOptions.topLevel).map(\.name).joined(separator: " "))) ;;\n    esac\n}\n\n"
        s += "# Whether option $1 takes a value (its value is then not a command word).\n__growcert_takes_value() {\n    case \"$1\" in\n"
        s += "        \(t.valueOptions.joined(separator: "|"))) return 0 ;;\n    esac\n    return 1\n}\n\n"
        s += "# The values of option $2 of command $1: a list, or __files__ for a path, or nothing.\n__growcert_values() {\n    case \"$1|$2\" in\n"
        for c in t.commands {
            for o in t.options(c) where !o.choices.isEmpty || takesPath(o) || idKind(o) != nil {
                let values = idKind(o).map { "__ids__ " + $0.rawValue } ?? (o.choices.isEmpty ? "__files__" : o.choices.joined(separator: " "))
                s += "        \(quote(c.name + "|" + o.name))) echo \(quote(values)) ;;\n"
            }
        }
        s += "        *'|--db') echo __files__ ;;\n    esac\n}\n\n"
        s += "# Whether command $1 takes a file as a positional argument.\n__growcert_file_positional() {\n    case \"$1\" in\n"
        let fileCommands = t.commands.filter { $0.positionals.contains(where: takesPath(positional:)) }.map { quote($0.name) }
        if !fileCommands.isEmpty { s += "        \(fileCommands.joined(separator: "|"))) return 0 ;;\n" }
        s += "    esac\n    return 1\n}\n\n"
        s += "# The kind of recorded ids command $1 takes as its positional argument (for growcert __complete).\n__growcert_id_positional() {\n    case \"$1\" in\n"
        for c in t.commands { if let kind = idKind(positionalOf: c) { s += "        \(quote(c.name))) echo \(kind.rawValue) ;;\n" } }
        s += "    esac\n}\n\n"
        s += """
        # The ids of a kind recorded in the workspace's database (nothing when there is none).
        __growcert_ids() {
            growcert __complete "$1" 2>/dev/null
        }

        # The command words among the words given: options and their values skipped.
        __growcert_path_of() {
            local gpath="" skip=0 w candidate
            for w in "$@"; do
                if [ "$skip" = 1 ]; then skip=0; continue; fi
                case "$w" in
                    --*=*) ;;
                    -*) if __growcert_takes_value "$w"; then skip=1; fi ;;
                    *)
                        if [ -z "$gpath" ] && [ "$w" = help ]; then continue; fi
                        for candidate in $(__growcert_next "$gpath"); do
                            if [ "$candidate" = "$w" ]; then gpath="${gpath:+$gpath }$w"; break; fi
                        done ;;
                esac
            done
            echo "$gpath"
        }


        """
        return s
    }

    static func header(_ shell: Shell) -> String {
        "# \(shell.rawValue) completion for growcert \(CLI.version). Generated by 'growcert completion \(shell.rawValue)' from its command table.\n"
    }

    static func bash(_ t: Table) -> String {
        header(.bash) + """
        # Install: save as /usr/share/bash-completion/completions/growcert, or source it from ~/.bashrc.


        """ + sharedFunctions(t) + """
        _growcert() {
            local cur="${COMP_WORDS[COMP_CWORD]}" prev="" gpath values
            [ "$COMP_CWORD" -gt 1 ] && prev="${COMP_WORDS[COMP_CWORD-1]}"
            # bash splits --option=value at '=': complete the value of the option before it.
            if [ "$cur" = "=" ]; then prev="${COMP_WORDS[COMP_CWORD-1]}"; cur=""
            elif [ "$prev" = "=" ] && [ "$COMP_CWORD" -gt 2 ]; then prev="${COMP_WORDS[COMP_CWORD-2]}"; fi
            gpath="$(__growcert_path_of "${COMP_WORDS[@]:1:COMP_CWORD-1}")"
            COMPREPLY=()
            if [ -n "$prev" ] && [ "${prev#-}" != "$prev" ] && __growcert_takes_value "$prev"; then
                values="$(__growcert_values "$gpath" "$prev")"
                if [ "$values" = __files__ ]; then
                    COMPREPLY=($(compgen -f -- "$cur"))
                elif [ "${values#__ids__ }" != "$values" ]; then
                    COMPREPLY=($(compgen -W "$(__growcert_ids "${values#__ids__ }")" -- "$cur"))
                elif [ -n "$values" ]; then
                    COMPREPLY=($(compgen -W "$values" -- "$cur"))
                fi
                return 0
            fi
            if [ "${cur#-}" != "$cur" ]; then
                COMPREPLY=($(compgen -W "$(__growcert_options "$gpath")" -- "$cur"))
                return 0
            fi
            local next="$(__growcert_next "$gpath")"
            local kind="$(__growcert_id_positional "$gpath")"
            if [ -n "$next" ]; then
                COMPREPLY=($(compgen -W "$next" -- "$cur"))
            elif [ -n "$kind" ]; then
                COMPREPLY=($(compgen -W "$(__growcert_ids "$kind")" -- "$cur"))
            elif __growcert_file_positional "$gpath"; then
                COMPREPLY=($(compgen -f -- "$cur"))
            fi
            return 0
        }
        complete -o filenames -F _growcert growcert

        """
    }

    static func zsh(_ t: Table) -> String {
        "#compdef growcert\n" + header(.zsh) + """
        # Install: save as _growcert in a folder of $fpath (e.g. /usr/share/zsh/vendor-completions), then run compinit.


        """ + sharedFunctions(t) + """
        _growcert() {
            local cur="${words[CURRENT]}" prev="" gpath values
            (( CURRENT > 2 )) && prev="${words[CURRENT-1]}"
            gpath="$(__growcert_path_of "${(@)words[2,CURRENT-1]}")"
            if [[ -n "$prev" && "$prev" == -* ]] && __growcert_takes_value "$prev"; then
                values="$(__growcert_values "$gpath" "$prev")"
                if [[ "$values" == __files__ ]]; then
                    _files
                elif [[ "$values" == __ids__* ]]; then
                    compadd -- ${(f)"$(__growcert_ids "${values#__ids__ }")"}
                elif [[ -n "$values" ]]; then
                    compadd -- ${=values}
                fi
                return
            fi
            if [[ "$cur" == -* ]]; then
                compadd -- ${=$(__growcert_options "$gpath")}
                return
            fi
            local next="$(__growcert_next "$gpath")" kind="$(__growcert_id_positional "$gpath")"
            if [[ -n "$next" ]]; then
                compadd -- ${=next}
            elif [[ -n "$kind" ]]; then
                compadd -- ${(f)"$(__growcert_ids "$kind")"}
            elif __growcert_file_positional "$gpath"; then
                _files
            fi
        }

        if [[ "$funcstack[1]" == "_growcert" ]]; then
            _growcert "$@"
        else
            compdef _growcert growcert
        fi

        """
    }

    /// Fish quotes: single quotes, with `\\` and `'` escaped.
    static func fishQuote(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    static func fish(_ t: Table) -> String {
        var s = header(.fish) + "# Install: save as ~/.config/fish/completions/growcert.fish (or /usr/share/fish/vendor_completions.d/).\n\n"
        s += "# The command words typed so far: options and their values skipped.\nfunction __growcert_path\n"
        s += "    set -l prefixes " + t.next.map { fishQuote($0.prefix) }.joined(separator: " ") + "\n"
        s += "    set -l value_options " + t.valueOptions.map(fishQuote).joined(separator: " ") + "\n"
        s += """
            set -l gpath ''
            set -l skip 0
            set -l candidate ''
            set -l typed (commandline -opc)
            set -e typed[1]
            for w in $typed
                if test $skip = 1
                    set skip 0
                    continue
                end
                switch $w
                    case '--*=*'
                    case '-*'
                        if contains -- $w $value_options
                            set skip 1
                        end
                    case '*'
                        if test -z "$gpath"
                            set candidate $w
                        else
                            set candidate "$gpath $w"
                        end
                        if test -z "$gpath" -a "$w" = help
                            continue
                        end
                        if contains -- $candidate $prefixes (__growcert_commands)
                            set gpath $candidate
                        end
                end
            end
            echo $gpath
        end

        function __growcert_commands
        """
        s += "\n    printf '%s\\n' " + t.commands.map { fishQuote($0.name) }.joined(separator: " ") + "\nend\n\n"
        s += "complete -c growcert -e\ncomplete -c growcert -f\n"
        for (prefix, words) in t.next {
            for word in words {
                let full = prefix.isEmpty ? word : prefix + " " + word
                let description = t.commands.first { $0.name == full }?.summary ?? (word == "help" ? "help on a command" : "commands of growcert \(full)")
                s += "complete -c growcert -n \(fishQuote("test \"$(__growcert_path)\" = \(fishQuote(prefix))")) -a \(fishQuote(word)) -d \(fishQuote(description))\n"
            }
        }
        for c in t.commands {
            let condition = fishQuote("test \"$(__growcert_path)\" = \(fishQuote(c.name))")
            for o in t.options(c) {
                var line = "complete -c growcert -n \(condition) -l \(fishQuote(String(o.name.dropFirst(2))))"
                if o.name == "--help" { line += " -s h" }
                if o.value != nil { line += takesPath(o) ? " -r -F" : " -x" }  // -x: a value, and not a file name
                if !o.choices.isEmpty { line += " -a \(fishQuote(o.choices.joined(separator: " ")))" }
                if let kind = idKind(o) { line += " -a \(fishQuote("(growcert __complete \(kind.rawValue) 2>/dev/null)"))" }
                s += line + " -d \(fishQuote(o.help))\n"
            }
            if c.positionals.contains(where: takesPath(positional:)) { s += "complete -c growcert -n \(condition) -F\n" }
            if let kind = idKind(positionalOf: c) { s += "complete -c growcert -n \(condition) -a \(fishQuote("(growcert __complete \(kind.rawValue) 2>/dev/null)"))\n" }
        }
        s += "complete -c growcert -n " + fishQuote("test -z \"$(__growcert_path)\"") + " -l version -d " + fishQuote("print the version") + "\n"
        return s
    }
}
