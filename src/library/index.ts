/**
 * rentctl as a library (`import { createClient } from "rentctl"`): a typed
 * client of the Vehicle Rental Partner API v302 with the CLI's rules, guards,
 * journal and fleet plans; the in-process sandbox is `rentctl/sandbox`.
 * Every error is a RentctlError whose `exitCode` is the CLI's exit code for it.
 */
export {
  ApiError,
  ApiValidationError,
  AuthError,
  MalformedResponseError,
  NetworkError,
  NotConfiguredError,
  NotFoundError,
  ServerError,
  TimeoutError,
} from "../api/errors.js";
export {
  ConflictError,
  EXIT,
  InputError,
  InterruptedError,
  PartialFailureError,
  RentctlError,
  StalePlanError,
  UsageError,
} from "../errors.js";
export { RegistrationTakenError } from "../ops/vehicle/registration.js";
export {
  type AccountApplyResult,
  type AccountDocument,
  type AccountMethods,
  type AccountPlan,
  type ApplyOptions,
  type CatalogItem,
  type CatalogItems,
  type Change,
  type ClientOptions,
  type Currency,
  createClient,
  type EditManyOptions,
  type EditManyResult,
  type EditResult,
  type Extra,
  type ExtraChange,
  type ExtraInput,
  type FleetApplyResult,
  type FleetDocument,
  type FleetPlan,
  type Image,
  type ImageFile,
  type LintFinding,
  type LintOptions,
  type LintResult,
  type ListOptions,
  type Locale,
  type PlanOptions,
  type RentctlClient,
  type SavedPlan,
  type Segment,
  type Vehicle,
  type VehicleChange,
  type VehicleInput,
  type VehicleManyChange,
  type VehicleSelectionInput,
  type WriteResult,
} from "./client.js";
export type { CatalogName, CatalogParams } from "./contract-types.js";
