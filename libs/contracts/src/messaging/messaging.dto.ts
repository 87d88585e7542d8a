import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Validate,
  ValidateNested,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { PageQueryDto } from '../http/pagination';
import { MESSAGE_ATTACHMENTS_MAX } from './attachments';

export const MESSAGE_MAX_LENGTH = 2000;
export const MESSAGES_PAGE_SIZE = 50;
/** The conversation list is one screen; 100 is the platform's cap for any page. */
export const CONVERSATIONS_PAGE_SIZE = 100;
/** Members a member may pick for one conversation (besides themselves). */
export const CONVERSATION_MAX_PICKED = 49;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** POST /messages/conversations: the users picked in the New Message modal. */
export class CreateConversationDto {
  @IsArray({ message: 'memberIds must be a list of user ids' })
  @ArrayMinSize(1, { message: 'Select at least one user' })
  @ArrayMaxSize(CONVERSATION_MAX_PICKED, { message: `Select at most ${CONVERSATION_MAX_PICKED} users` })
  @ArrayUnique({ message: 'Each user can be selected only once' })
  @IsString({ each: true, message: 'Each member id must be a string' })
  @IsNotEmpty({ each: true, message: 'Member ids must not be empty' })
  @MaxLength(64, { each: true, message: 'Member ids are at most 64 characters' })
  memberIds: string[];
}

/** PUT /messages/{id}: the text only (trimmed, 1-2000 characters); images are kept as sent. */
export class EditMessageDto {
  @Transform(trim)
  @IsString({ message: 'Message content must be text' })
  @IsNotEmpty({ message: 'Message cannot be empty' })
  @MaxLength(MESSAGE_MAX_LENGTH, { message: `Message must be at most ${MESSAGE_MAX_LENGTH} characters` })
  content: string;
}

export const MESSAGE_ATTACHMENT_ALT_MAX = 200;
/** Only an upload of this product (POST /api/media): a chat never carries an arbitrary URL. */
export const MESSAGE_MEDIA_PATTERN = /^\/api\/media\/[A-Za-z0-9_-]{1,64}$/;

/** One image of a message: the media URL the upload returned, with optional alt text. */
export class MessageAttachmentDto {
  @IsString({ message: 'url must be text' })
  @Matches(MESSAGE_MEDIA_PATTERN, { message: 'url must be an uploaded image (/api/media/{id})' })
  url: string;

  @IsOptional()
  @Transform(trim)
  @IsString({ message: 'alt must be text' })
  @MaxLength(MESSAGE_ATTACHMENT_ALT_MAX, { message: `alt must be at most ${MESSAGE_ATTACHMENT_ALT_MAX} characters` })
  alt?: string;
}

/** Text, images, or both: only a message with neither is empty. */
@ValidatorConstraint({ name: 'contentOrImages' })
class ContentOrImages implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    const images = (args.object as { attachments?: unknown }).attachments;
    return (typeof value === 'string' && value.length > 0) || (Array.isArray(images) && images.length > 0);
  }
}

/** POST /messages/conversations/{id}/messages: content is stored trimmed; it may be blank when images come with it. */
export class SendMessageDto {
  @Transform(trim)
  @IsString({ message: 'Message content must be text' })
  @Validate(ContentOrImages, { message: 'Message cannot be empty' })
  @MaxLength(MESSAGE_MAX_LENGTH, { message: `Message must be at most ${MESSAGE_MAX_LENGTH} characters` })
  content: string = '';

  @IsOptional()
  @IsArray({ message: 'attachments must be a list' })
  @ArrayMaxSize(MESSAGE_ATTACHMENTS_MAX, { message: `A message holds at most ${MESSAGE_ATTACHMENTS_MAX} images` })
  @ValidateNested({ each: true })
  @Type(() => MessageAttachmentDto)
  attachments?: MessageAttachmentDto[];
}

export const REACTION_EMOJI_MAX_LENGTH = 16;

/** Built on the first reaction checked: a segmenter makes ICU's break rules resident (~2.5 MB), and every process loads this module. */
let graphemes: Intl.Segmenter | undefined;
const PICTOGRAPH = /[\p{Extended_Pictographic}\p{Regional_Indicator}]/u;

/** One emoji: a single grapheme (flags, skin tones and ZWJ families are one) that shows a pictograph. */
export function isReactionEmoji(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > REACTION_EMOJI_MAX_LENGTH) return false;
  let count = 0;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const _ of graphemes.segment(value)) if (++count > 1) return false;
  return PICTOGRAPH.test(value);
}

@ValidatorConstraint({ name: 'isReactionEmoji' })
class IsReactionEmoji implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return isReactionEmoji(value);
  }
}

/** POST|DELETE /messages/{id}/reactions. */
export class ReactionDto {
  @IsString({ message: 'emoji must be text' })
  @IsNotEmpty({ message: 'emoji is required' })
  @MaxLength(REACTION_EMOJI_MAX_LENGTH, { message: `emoji must be at most ${REACTION_EMOJI_MAX_LENGTH} characters` })
  @Validate(IsReactionEmoji, { message: 'emoji must be a single emoji' })
  emoji: string;
}

export class MessagesQueryDto extends PageQueryDto {
  override limit = MESSAGES_PAGE_SIZE;
}

export class ConversationsQueryDto extends PageQueryDto {
  override limit = CONVERSATIONS_PAGE_SIZE;
}
