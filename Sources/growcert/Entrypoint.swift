import ArgumentsKit
import Foundation

@main
enum Entrypoint {
    static func main() async {
        let environment = ProcessInfo.processInfo.environment
        var cli = CLI(environment: environment)
        cli.terminal = TerminalStyle.detect(environment: environment)
        exit(await cli.run(arguments: CommandLineArguments.validated()))
    }
}
