/** Images per chat message (issue 22 §4): the DTO's limit and the web's attach button's. */
export const MESSAGE_ATTACHMENTS_MAX = 4;
