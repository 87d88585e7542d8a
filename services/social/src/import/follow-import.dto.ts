import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** One follow of a bulk import: who follows whom, as `POST /follows/users/{followee_id}` by `follower_id`. */
export class ImportFollowDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  follower_id: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  followee_id: string;
}
