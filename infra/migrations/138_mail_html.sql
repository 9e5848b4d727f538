-- Client emails have an HTML part beside the plain text (services/onboardings/client-emails/):
-- nodemailer sends both as multipart/alternative. html holds what text holds (the link, the
-- client's name and answers), so it is kept the same way: sealed with the client's personal
-- data key while queued (shared/mail/outbox.ts), and once sent its link tokens are replaced by
-- references and it is sealed again (services/mail/sent-mail.ts). Null for mail without one
-- (automation, workspace account and team notification mails, mail queued before).
alter table mail_outbox add column html text;
