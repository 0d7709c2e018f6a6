import { appApiNotFound } from "~/platform/app-api/wrapper.server";

export const { loader, action } = appApiNotFound;
