/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

#include "analysis/alert.h"

G_BEGIN_DECLS

/*
 * MESSAGE_ID of "a new SELinux alert" in the journal:
 * `journalctl MESSAGE_ID=d4f58c64e4ee4ed99c5f0788e961c6e3` lists them.
 */
#define AD_JOURNAL_MESSAGE_ID "d4f58c64e4ee4ed99c5f0788e961c6e3"
#define AD_JOURNAL_DEFAULT_SOCKET "/run/systemd/journal/socket"

typedef struct _AdJournal AdJournal;

/*
 * A writer of structured entries to the journal's native socket @path
 * (systemd-journald; AD_JOURNAL_DEFAULT_SOCKET).  NULL when there is no
 * such socket (no journald: syslog alone carries the alerts).
 */
AdJournal *ad_journal_new(const char *path);
void ad_journal_free(AdJournal *j);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdJournal, ad_journal_free)

/*
 * One entry for a new alert: MESSAGE (@summary, the syslog line),
 * MESSAGE_ID, PRIORITY (crit for red, warning otherwise),
 * SYSLOG_IDENTIFIER=avcdoctor and AVCDOCTOR_ALERT_ID, _LEVEL, _SOURCE,
 * _TARGET, _CLASS, _PERMISSIONS, _HOST (the node= names, "" the local
 * host), _COUNT.  Values go in the protocol's binary-safe form, so nothing
 * in a record can add a field.  FALSE with @error when the entry could not
 * be sent (the caller logs it; nothing else depends on it).
 */
gboolean ad_journal_send_alert(AdJournal *j, const AdAlert *a, const char *summary,
			       GError **error);

/* the entry as it goes on the socket (for tests); owned */
GBytes *ad_journal_alert_entry(const AdAlert *a, const char *summary);

G_END_DECLS
