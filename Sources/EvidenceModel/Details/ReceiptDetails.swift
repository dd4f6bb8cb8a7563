import StrictJSON

/// The details of a vendor's acceptance of a store transaction: GrooveGrow's server receipt (the order
/// the hosted Sandbox returned for it), or another vendor's answer that it accepted the transaction.
///
/// Which detail pairs an acceptance with its transaction is profile data (`BindingKey`); whether the
/// document (`raw`) proves that very transaction is the binding rule's to say (`Reports/Verdicts`).
package struct ReceiptDetails: EvidenceDetails {
    /// The acceptance's JSON keys.
    package enum Key: String, CaseIterable, Sendable { case orderId, receiptId, status, raw, source, transactionId }

    package static let evidenceType = EvidenceType.receipt

    /// The vendor's order id the acceptance is for; written as `null` when none.
    package var orderId: String?
    /// The vendor's receipt id; written as `null` when none.
    package var receiptId: String?
    /// The status the vendor gave it; written as `null` when none.
    package var status: String?
    /// The vendor's document as received: a JSON object, or (uploaded by hand) its text.
    package var raw: JSONValue
    /// How it was recorded: `check` (fetched by a live check) or `uploaded`.
    package var source: String
    /// The store transaction the acceptance names, when the vendor's answer names one; nil: no key.
    package var transactionId: String?

    /// An acceptance's details.
    package init(orderId: String?, receiptId: String?, status: String?, raw: JSONValue, source: String, transactionId: String? = nil) {
        self.orderId = orderId
        self.receiptId = receiptId
        self.status = status
        self.raw = raw
        self.source = source
        self.transactionId = transactionId
    }

    /// Reads the details; a missing `source` reads as empty and a missing `raw` as `null`.
    package init(json: JSONValue) {
        orderId = DetailValue.id(json[Key.orderId.rawValue])
        receiptId = DetailValue.id(json[Key.receiptId.rawValue])
        status = DetailValue.text(json[Key.status.rawValue])
        raw = json[Key.raw.rawValue] ?? .null
        source = DetailValue.text(json[Key.source.rawValue]) ?? ""
        transactionId = DetailValue.id(json[Key.transactionId.rawValue])
    }

    /// `transactionId` is written only when set.
    package var json: JSONValue {
        var o: [String: JSONValue] = [
            Key.orderId.rawValue: .optional(orderId), Key.receiptId.rawValue: .optional(receiptId), Key.status.rawValue: .optional(status),
            Key.raw.rawValue: raw, Key.source.rawValue: .string(source),
        ]
        if let transactionId { o[Key.transactionId.rawValue] = .string(transactionId) }
        return .object(o)
    }

    /// The vendor's document as a JSON object: `raw` itself, or the text it holds; nil otherwise.
    package var document: JSONValue? {
        if raw.objectValue != nil { return raw }
        if let text = raw.stringValue, let parsed = try? JSONValue.parse(text), parsed.objectValue != nil { return parsed }
        return nil
    }
}

extension ReceiptDetails: BindingKeyed {}
