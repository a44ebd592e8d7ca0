export type { Client } from "../../../../api/types";

export interface ClientFormValues {
  name: string;
}

export interface ClientPayload {
  name: string;
}
