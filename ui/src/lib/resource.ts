// Reading a Solid resource without its error thrown at the reader: the value, or undefined while it failed
// (the screen shows `resource.error` itself, with the service's messages).
import type { Resource } from "solid-js";

export function valueOf<T>(resource: Resource<T>): T | undefined {
  return resource.error ? undefined : resource();
}
