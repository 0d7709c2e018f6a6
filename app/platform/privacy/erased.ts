/**
 * What an erased shopper's fields become (decision 040); shared by server code and the admin page,
 * which names them in its confirmation. The e-mail and the order notes become null.
 */
export const ERASED_NAME = "Erased customer";
export const ERASED_TEXT = "[erased]";
