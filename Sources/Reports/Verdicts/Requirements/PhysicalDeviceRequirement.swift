import EvidenceModel

/// `physicalDevice`: the run's device is a physical device, not a simulator or emulator.
///
/// It needs a device: without one, and without `device` in the scenario's list, it reports the device missing.
struct PhysicalDeviceRequirement: RequirementEvaluator {
    let id = RequirementID.physicalDevice

    func evaluate(_ context: RequirementContext) -> [RequirementReport] {
        guard let device = context.device else {
            return context.scenario.requires(.device) ? [] : DeviceRequirement().evaluate(context)
        }
        if device.kind == .physical { return [.met(.physicalDevice, device.label)] }
        return [RequirementReport(kind: .physicalDevice, status: .notCertifying, subject: device.label, evidenceId: nil, provenance: nil,
                                  reasons: [Reason(.simulatorDevice, ["device": device.label, "kind": device.kind.rawValue])])]
    }
}
