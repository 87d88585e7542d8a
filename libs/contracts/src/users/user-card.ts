/** How one member appears inside another service's reply (author, sender, requester...). */
export interface UserCard {
  id: string;
  username: string;
  display_name: string;
  profile_image_url: string | null;
}
