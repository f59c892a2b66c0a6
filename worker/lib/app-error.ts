import { errors, type ErrorName } from "../contract/errors";

/**
 * The one error type services, rooms and routes throw; http's `onError` turns it into the §7 envelope. It lives in
 * lib/, below http/, so services and rooms import nothing from the HTTP layer.
 */
export class AppError extends Error {
  readonly entry: (typeof errors)[ErrorName];
  readonly issues?: { path: (string | number)[]; message: string; code?: string }[];

  constructor(name: ErrorName, options: { message?: string; issues?: AppError["issues"] } = {}) {
    super(options.message ?? errors[name].message);
    this.entry = errors[name];
    this.issues = options.issues;
  }

  get status() {
    return this.entry.status;
  }
}

export const fail = (name: ErrorName, options?: ConstructorParameters<typeof AppError>[1]): never => {
  throw new AppError(name, options);
};
