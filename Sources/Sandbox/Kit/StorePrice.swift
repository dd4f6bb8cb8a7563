/// App Store prices: a StoreKit 2 JWS writes `price` in thousandths (milliunits) of its currency.
enum StorePrice {
    /// The price as decimal text in currency units, exact, with at least two fraction digits:
    /// `4990` → `4.99`, `5000` → `5.00`, `1234` → `1.234`. Nil when `milliunits` is not a whole number
    /// written in digits (a leading `-` allowed).
    static func decimalText(milliunits text: String) -> String? {
        var digits = Substring(text)
        let negative = digits.first == "-"
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 30, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        var padded = String(digits.drop { $0 == "0" })
        if padded.count < 4 { padded = String(repeating: "0", count: 4 - padded.count) + padded }
        let integer = padded.dropLast(3)
        var fraction = padded.suffix(3)
        if fraction.last == "0" { fraction = fraction.dropLast() }
        let isZero = padded.allSatisfy { $0 == "0" }
        return (negative && !isZero ? "-" : "") + integer + "." + fraction
    }
}
