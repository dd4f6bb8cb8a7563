import Checks

extension CheckNeed {
    /// How to give what a check needs, with this CLI's flags and commands (the check states the need as data).
    var hint: String {
        switch self {
        case .serverKey: return "set GROWCERT_SERVER_KEY to the vendor's server key (read from the environment only)"
        case .tokenSource: return "set GROWCERT_SERVER_KEY, or pass --token-command COMMAND"
        case .secondCustomer: return "pass --second-customer CUSTOMER_ID (another customer than --customer)"
        case .devicePurchase: return "pass --order-id ORDER_ID --transaction-id TRANSACTION_ID"
        case .storeTransaction: return "record it with growcert evidence add transaction --run RUN --jws-file FILE, then run the check again"
        case .purchaseOwner: return "pass --customer with the customer the purchase was made as"
        }
    }
}
