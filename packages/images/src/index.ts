export { createImageIntake, intakeImage, LOOPBACK_WARNING } from "./image-intake.ts";
export type { ImageIntake, ImageIntakeOptions, IntakeResult } from "./image-intake.ts";
export type { PreparedImage } from "./prepare-image.ts";
export type { IntakeFailure, IntakeFailureKind } from "./intake-refusal.ts";
export { classifyAddress } from "./classify-address.ts";
export type { AddressVerdict, AddressPolicy } from "./classify-address.ts";
export { sniffImageFormat } from "./image-format.ts";
export type { ImageFormat } from "./image-format.ts";
export type { HostResolver, ResolvedAddress } from "./resolve-host.ts";
