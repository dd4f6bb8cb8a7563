import Foundation
import Testing

/// A local RFC 3161 timestamp authority for tests: a test CA and a TSA certificate (extended key
/// usage critical timeStamping) made with the openssl CLI, answering on 127.0.0.1 with
/// `openssl ts -reply` behind a tiny HTTP server. Traffic goes to loopback only.
final class LocalTSA {
    let dir: String
    let url: String
    var caPEM: String { dir + "/ca.pem" }
    var tsaPEM: String { dir + "/tsa.pem" }
    private let server: Running

    init(_ g: Growcert) throws {
        dir = g.path("tsa")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let openssl = try Growcert.tool(["openssl"], install: "install the Debian package openssl ('make test' does)")
        _ = try Growcert.tool(["python3"], install: "install python3 ('make test' does) for the local timestamp authority")
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        for args in [
            ["req", "-x509"] + ec + ["-keyout", dir + "/ca.key", "-out", dir + "/ca.pem", "-subj", "/CN=growcert test TSA CA", "-days", "2",
                                     "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
            ["req"] + ec + ["-keyout", dir + "/tsa.key", "-out", dir + "/tsa.csr", "-subj", "/CN=growcert test TSA"],
            ["x509", "-req", "-in", dir + "/tsa.csr", "-CA", dir + "/ca.pem", "-CAkey", dir + "/ca.key", "-CAcreateserial",
             "-out", dir + "/tsa.pem", "-days", "2", "-extfile", dir + "/ext.cnf"],
        ] {
            if args[0] == "x509" {
                try "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n"
                    .write(toFile: dir + "/ext.cnf", atomically: true, encoding: .utf8)
            }
            let o = try g.execute(openssl, args, env: [:])
            try #require(o.code == 0, "openssl \(args.joined(separator: " ")): \(o)")
        }
        try "01\n".write(toFile: dir + "/serial", atomically: true, encoding: .utf8)
        try """
            [ tsa ]
            default_tsa = tsa_config1
            [ tsa_config1 ]
            dir = \(dir)
            serial = $dir/serial
            crypto_device = builtin
            signer_cert = $dir/tsa.pem
            signer_key = $dir/tsa.key
            signer_digest = sha256
            default_policy = 1.2.3.4.1
            digests = sha256
            accuracy = secs:1
            ordering = no
            tsa_name = no
            ess_cert_id_chain = no
            ess_cert_id_alg = sha256

            """.write(toFile: dir + "/tsa.cnf", atomically: true, encoding: .utf8)
        try """
            import http.server, subprocess, sys
            d = sys.argv[1]
            class H(http.server.BaseHTTPRequestHandler):
                def do_POST(self):
                    body = self.rfile.read(int(self.headers.get('Content-Length', '0')))
                    ok = self.headers.get('Content-Type') == 'application/timestamp-query'
                    open(d + '/req.tsq', 'wb').write(body)
                    r = subprocess.run(['openssl', 'ts', '-reply', '-config', d + '/tsa.cnf', '-queryfile', d + '/req.tsq', '-out', d + '/resp.tsr'], capture_output=True)
                    ok = ok and r.returncode == 0
                    data = open(d + '/resp.tsr', 'rb').read() if ok else r.stderr
                    self.send_response(200 if ok else 400)
                    self.send_header('Content-Type', 'application/timestamp-reply')
                    self.send_header('Content-Length', str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                def log_message(self, *a): pass
            s = http.server.HTTPServer(('127.0.0.1', 0), H)
            print(s.server_address[1], flush=True)
            s.serve_forever()

            """.write(toFile: dir + "/tsa.py", atomically: true, encoding: .utf8)
        server = try g.start("exec python3 '\(dir)/tsa.py' '\(dir)'")
        let port = try server.firstLine()
        url = "http://127.0.0.1:\(port)/tsa"
    }

    deinit {
        // SIGKILL: the test process may hand SIGTERM down ignored.
        kill(server.process.processIdentifier, SIGKILL)
        _ = try? server.finish()
    }
}
