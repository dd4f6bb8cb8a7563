import EvidenceModel

/// `device`: the run names a recorded device.
struct DeviceRequirement: RequirementEvaluator {
    let id = RequirementID.device

    func evaluate(_ context: RequirementContext) -> [RequirementReport] {
        guard let device = context.device else { return [.missing(.device, Reason(.noDevice))] }
        return [.met(.device, device.label)]
    }
}
