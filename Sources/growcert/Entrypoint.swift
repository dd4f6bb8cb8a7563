import ArgumentsKit
import Foundation

@main
enum Entrypoint {
    static func main() async {
        var cli = CLI(environment: .process)
        cli.terminal = TerminalStyle.detect(environment: .process)
        exit(await cli.run(arguments: CommandLineArguments.validated()))
    }
}
