"""English: what the gates and the speech-act reader know of it, by kind (the kinds: domain/lexicon.py).

Each entry is a regular expression (compiled case-insensitive unless it says otherwise) or, for a `*_words`
kind, a space-separated word list. Sources: the gold sets' traps, issue 17's and issue 25's probes."""

TEXT_SEARCH = "english"

_TIME_WORD = (r"(?:morning|afternoon|evening|week|weekend|month|year|quarter|spring|summer|autumn|fall|winter|"
              r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|time)")

LEXICON = {
    "companion": r"\b(?:with|along with|together with)",
    # speech acts (domain/speech.py)
    "instruction":
        r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:(?:of\s+)?(?:your|the|my|previous|prior|"
        r"above|earlier|system|these|those)\s+)+(?:instructions?|prompts?|rules?|guidelines)\b(?!\s+of\b)"
        r"|\b(?:system prompt|developer message|new instructions)\b|\byou are now\b(?!\s+(?:my|our|the|a)\b)"
        r"|\b(?:record|store|save|write down|memori[sz]e)\s+(?:that|this)\b"
        r"|\b(?:add|write|save|store|put)\b.{0,30}\b(?:to|in|into)\s+(?:your|the)\s+(?:memory|database|records|"
        r"profile)\b|\bignore[sz]?\b.{0,30}\binstructions\b",
    "reported_speech":
        r"\b(?:said|says|saying|kept saying|told me|tells me|telling me|claims that|claimed|mentioned|"
        r"according to)\b",
    "quoted_first_person": r"I\b|I'm|my\b|we\b",
    "self_report": r"\b(?:(?:as|like)\s+)?I(?:'ve|\s+have)?\s+(?:already\s+|just\s+)?(?:said|mentioned|told you)\b",
    "other_person":
        r"\b(?:my|our)\s+(?:\w+\s+)?(?:friends?|wife|husband|partner|mom|mum|mother|dad|father|brother|sister|sons?|"
        r"daughters?|boss|colleagues?|coworkers?|co-workers?|kids?|child|children|family|parents|neighbou?rs?|"
        r"girlfriend|boyfriend|cousins?|aunt|uncle|grand\w*|roommate|flatmate|manager|team|oga|madam)\b"
        r"(?!\s+(?:meeting|meetings|call|calls|dinner|lunch|trip|holiday|event|offsite|standup|stand-up|retro|"
        r"channel|chat|account|plan|budget|name|home|house)\b)"  # "our team meeting" is the user's own
        r"|^\W*(?:he|she|they|his|her)\b",
    # A lower-case "i" is the user only before a verb: it is "in" in Swedish, Norwegian, Danish ("Min syster bor i
    # Stockholm"), "the" in Italian, and English words are read beside every language's.
    "self": r"\b(?:(?-i:I)|I'm|I've|I'd|I'll|me|myself|we)\b|\bi\s+(?=(?:am|was|have|had|do|don't|did|didn't|will|"
            r"would|can|can't|could|live|love|like|work|want|need|think|hate|prefer|go|went|got|moved|just|also|"
            r"really|usually|always|never|still)\b)",
    "sarcasm":
        r"^\W*oh,?\s+(?:great|joy|wonderful|perfect|lovely|good|sure|fantastic|brilliant)\b"
        r"|^\W*(?:yeah,? right|sure,? sure|just what I needed)\b|(?:^|\s)/s\b"
        r"|\byeah,? right\b|\bjust (?:love|adore) (?:how|it when|when)\b|\blove paying\b"
        r"|^\W*(?:wow|awesome|great|perfect|fantastic|wonderful),?\s+(?:another|more)\b"
        r"|(?<!n't )(?<!not )(?<!never )(?<!n't really )\b(?:love|loves|like|enjoy|adore)\s+(?:\w+\s+){0,2}"
        r"(?:waiting|queu\w*|standing in line|being stuck|stuck in|traffic|being ignored|being on hold|on hold|"
        r"delays?|delayed|cancell?ed|paperwork|taxes|spam|mondays)\b",
    # "No kidding", "I'm not kidding", "are you kidding me?", "kidding around" and "JK Rowling" take nothing back.
    "kidding":
        r"(?<!no )(?<!not )(?<!n't )\b(?:just kidding|only kidding|kidding|just joking|i'm joking|i was joking|"
        r"scratch that|strike that)\b(?!\s+(?:me|around)\b)|(?-i:\bjk\b|\bJK\b(?!\s+[A-Z]))|\bj/k\b",
    "conditional": r"^\W*(?:(?:and|but|so|well)\s+)?(?:if|what if|suppose|supposing)\b(?!,)",
    # A condition on a need of the one addressed (to reach the user, anything at all): the request after it
    # stands, whenever the need comes (domain/speech.py); no hypothetical about the user.
    "need_condition": r"^\W*(?:(?:and|but|so)\s+)?if\s+(?:(?:you|u)\s+(?:ever\s+)?(?:need|have|want|must|got)\s+to\s+(?:contact|reach|call|text|email|ring|get\s+(?:in\s+touch|hold))\b|(?:you|u)\s+need\s+(?:anything|something|me)\b|(?:anything|something)\s+(?:comes\s+up|is\s+needed)\b|needed\b|need\s+be\b)",
    "hedge":
        r"\b(?:maybe|perhaps|might|not sure|unsure|probably|possibly|considering|thinking about|wonder|whether|"
        r"someday|one day,? (?:I|we)|I hope to|hoping to|hopefully|I wish(?! to))\b",
    # a choice left open, a question put off (issue 25: "OK, I'll think about it." after a price became "The user
    # decides to think about buying an annual plan."; "I'm hesitating between the Team plan and the Business plan,
    # I'll decide next week." a decision)
    "undecided":
        r"\b(?:(?:I'll|I will|I'd like to|I want to|I need to|I have to|let me|I'm going to|I am going to|gonna)\s+"
        r"(?:(?:have to|need to)\s+)?(?:think (?:about|it over|this over|on)|sleep on it|decide|mull)"
        r"|hesitat\w*|torn between|deciding between|choosing between|undecided|on the fence|(?:haven't|have not|"
        r"not yet|didn't|did not) decided?|not decided|(?:get|come) back to you|let you know)\b",
    # the value as it is and should not be ("Our invoices keep coming in dollars. We need them in euros, always."
    # is no fact of dollars), the words before a value left ("euros instead of dollars"), and the value as wanted
    "moving_away":
        r"\b(?:keeps?|kept)\s+(?:on\s+)?(?:coming|getting|arriving|showing|being|sending|charging|billing|using)\b"
        r"|\bstill\s+(?:comes?|coming|arrives?|arriving|gets?|getting|shows?|being|sent|charged|billed|in)\b",
    "away_from": r"\b(?:instead of|rather than|(?:switch|switching|switched|change|changing|changed|move|moving|"
                 r"moved)\s+(?:away\s+)?from|away from)\s+",
    "wanted": r"\b(?:need|needs|want|wants|would like|'d like|should be|must be|has to be|have to be|from now on|"
              r"going forward|instead|in future)\b",
    "interrogative":
        r"^\W*(?:what|what's|where|where's|when|why|who|whom|whose|which|how|do|does|did|can|could|would|will|is|"
        r"are|was|were|should|shall|have|has|may|am|"
        # "..., any idea where I can find kdrama events?" asks, though it holds "I" (a break-it review).
        r"any|anything|anyone|anybody|anywhere)\b",
    "request": r"^\W*(?:please\s+)?(?:can|could|would|will)\s+you\b",
    "standing": r"\b(?:from now on|going forward|in (?:the )?future|always|every time|call me|address me)\b",
    "pleasantry_words": "thanks thank you so very much a lot ok okay great cool nice hi hello hey bye goodbye "
                        "cheers perfect awesome super good morning evening night again have day wonderful appreciate it "
                        "that s all thx ty tks tnx tq for the info information help explanation",
    "filler_words": "hmm hm um uh er well oh so yes yeah yep no nah lol haha wait actually btw anyway alright "
                    "right sure",
    "question_tail": r"^\W*(?:or|right|correct|isn't it|aren't you|don't you|yes or no)\b",
    "one_off": r"\b(?:just|only)\s+(?:this|for\s+this)\s+(?:once|time|one\s+time|order)\b(?!\s+of\b)|\bjust\s+this\s+once\b|\bthis\s+time\s+only\b|\bjust\s+for\s+today\b",
    "former": r"\bused\s+to\b|\bformerly\b|\bpreviously\b|\bback then\b|\bonce\s+(?:lived|worked)\b",
    "desire": r"\b(?:want|wants|wanna|would\s+like|\'d\s+like|wish|hope|hoping|dream\w*|thinking\s+(?:of|about)|considering)\b",
    "clause_joiner": r"\s+(?:and|but|while|whereas)\s+",
    # gates (domain/gates.py)
    "naming":
        r"\b(?:name|names|named|call(?:s|ed)? me|call you|called|go by|goes by|address me|address you|addressed as|"
        r"sign(?:ed)? as|nickname|surname)\b",
    "weak_naming": r"I'm|I am|it's|this is",
    "weak_naming_after": r"here",
    "living": r"\b(?:live|lives|living|lived|moved|move|moving|relocated|relocate|relocating|settle in|settled in|"
              r"settling in|(?:which|what)\s+(?:city|town)\s+(?:are\s+you|r\s+u)\s+(?:in|based)|based|home|reside|resides|resident|"
              r"house|flat|apartment|hometown|settled|staying|upped sticks)\b|\b(?:our|my)\s+place\b",
    "stance": r"\b(?:lov|lik|enjoy|ador|hat|dislik|prefer|favou?rit|fan\b|into\b|can't stand|cannot stand|"
              r"best\b|worst\b)",
    # A casual one after a filler or two ("eh go for it", "aight bet, run it"; casual US English): the filler alone
    # is no assent ("alright, I'll pass for now", "aight nah im good"), nor is a hesitant "hmm okay".
    "assent": r"^\s*(?:yes|yeah|yep|ok|okay|sure|please do|go ahead|do it|do that|sounds good)\b|"
              r"^\s*(?:(?:eh|ah|oh|well|aight|alright|ok|okay|bet)[,.!]?\s+){0,3}"
              r"(?:go for it|let's do it|works for me|run it|do it|sounds good)\b",
    "user_subject": r"^\s*(?:the\s+)?user(?:'s)?\b",
    # A fact whose subject is a relative or friend of the user ("The user's sister moved to Koper.": a 1.5B model's
    # fact of "moja sestra se je preselila v Koper", filed as the user's home). Not a manager or a team: "The user's
    # manager is Anna" is the user's own.
    # A fact whose own text says the user wants, asks or plans something: no job, home or name is a wish ("The user
    # requests a late night tea." filed as a job, "The user plans to travel to Bükk.": a 1.5B model, session 19).
    "fact_plan": r"^\s*(?:the\s+)?user\s+(?:plans|is\s+planning|intends|is\s+going\s+on|is\s+taking|will\s+(?:go|travel|visit|fly|take))\b",  # a plan the fact says the user made (domain/slot_repair.py)
    "fact_wish": r"^\s*(?:the\s+)?user\s+(?:wants|would\s+like|wishes|plans|intends|is\s+planning|is\s+looking\s+for|"
                 r"looks\s+for|is\s+searching\s+for|is\s+asking|asks|asked|requests|requested|is\s+requesting|"
                 r"inquires|is\s+inquiring|orders|ordered|is\s+ordering|needs|hopes|is\s+hoping|"
                 r"(?:is\s+)?(?:aiming|trying|hoping|looking|planning|about)\s+to|aims\s+to|tries\s+to)\b",
    "fact_other_person": r"^\s*(?:the\s+)?user'?s\s+(?:\w+\s+)?(?:friends?|wife|husband|partner|mom|mum|mother|dad|"
                         r"father|brothers?|sisters?|sons?|daughters?|kids?|child|children|parents|neighbou?rs?|"
                         r"girlfriend|boyfriend|cousins?|aunt|uncle|grand\w*|roommate|flatmate|colleagues?|coworkers?)\b",
    # Narrower than the offline extractor's list: a fact says "their" and "them" of the user, lower-case only
    # ("IT" is a trade, "It" a novel); "it" before to/that/when/if is the dummy subject; "this" before a time
    # word is a date; "there" before a verb of being is no place; "that" points when it ends the fact or follows
    # a preposition, not as a conjunction.
    "fact_pronoun":
        rf"(?<![\w'.@/-])(?:(?-i:it)(?!\s+(?:\w+\s+){{0,2}}(?:to|that|when|if|whether)\b)|(?-i:this)(?!\s+{_TIME_WORD}\b)|"
        rf"(?-i:these|those)|him|her(?!\s+\w)|there(?!\s+(?:is|are|was|were|will|has|have)\b)|the (?:latter|former|above)|"
        rf"that(?=\s*[.!?]?\s*$)|(?:into|in|on|at|of|with|from|about|for) that(?=\s+\w))(?![\w'@/-])",
    "stopwords": "the a an of to in on at for and or by my me is are be with from as at it",
    "date_words": "monday tuesday wednesday thursday friday saturday sunday january february march april may june "
                  "july august september october november december am pm",
    # forget requests (domain/retractions.py): the noun of each slot, tried in the slots' order
    "forget_nouns": {
        "email": r"e-?mail(?: address)?|email address|e-?mail",
        "phone_number": r"(?:phone|mobile|cell|telephone)(?: ?number)?|number",
        "home_location": r"(?:home )?address",
        "name": r"(?:first |last )?name",
        "job": r"job|occupation",
        "employer": r"employer|company",
    },
    "possessive": r"my",
    "forget_verb": r"forget|delete|erase|remove|drop|wipe|(?:stop|quit) (?:remembering|storing|keeping|saving)|"
                   r"(?:don't|do not|never) (?:remember|store|keep|save)",
    "forget_not": ("don't ", "do not ", "never "),  # before the verb: asks to keep
    "forget_about": r"(?:what I (?:said|told you)|everything I said|everything)?\s*(?:about|regarding)\s+",
    # language.py: frequent words for the text search configuration
    "marker_words": "the a an and or of to in on at for with from by as is are was were be been has have had not "
                    "no i my me you your he his she her they their it its this that who which user likes loves "
                    "hates prefers lives works wants would will should does do did about like",
    "decided": r"\b(?:decided|made up my mind)\b",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"\bno longer (?:like|love|enjoy|care for|into)\b|\b(?:don't|do not|doesn't|does not) (?:like|love|enjoy)\b[^.!?]{0,30}\bany ?more\b(?!\s+than)|\bnot (?:a fan of|into)\b[^.!?]{0,30}\bany ?more\b(?!\s+than)|\bstopped (?:liking|loving|enjoying)\b",
    # Being somewhere said as where one is based, the place right after ("I'm in Fremantle, just off South
    # Terrace": holdout set 11; "im in auckland"; "I stay in Port Harcourt", Nigerian and Indian English for "I
    # live": holdout sets 7, 10): a home only in a clause naming no trip (`travel`) and no passing stay (`passing`).
    "located": r"\b(?:i'?m|i’m|i am|im|we'?re|we are)\s+(?:now\s+|currently\s+|still\s+|also\s+|actually\s+)?in"
               r"|\b(?:i|we)\s+(?:still\s+)?stay\s+(?:in|at)",
    "passing": r"\b(?:for\s+(?:a|an|the|two|three|four|five|a few|some|\d+|work|business|now|christmas|easter)|"
               r"till|until|til|next|this (?:week|month|weekend)|today|tonight|right now|at the moment|"
               r"when|while|whenever|on (?:business|holiday|vacation)|hotels?|airbnb|hostel|hospital)\b",
    "travel": r"\b(?:trip|road\s*trip|travel\w*|vacation\w*|holiday\w*|journey|visit\w*|tour|getaway|fly(?:ing)?\s+to|flight\s+to)\b",
    "origin": r"\b(?:grew up|growing up|born|(?:was|were|got)\s+raised|raised\s+(?:in|on|up)|originally from|"
              r"hometown|home town|native of)\b",
    # Contact channels by their names (domain/value_support.py); the key is the channel as a model names it.
    "channel_names": {
        "email": r"\be-?mails?\b|\binbox\b",
        "phone": r"\b(?:tele)?phone\b|\bphone call\b|\bmobile\b(?!\s+app)|\bcell\s*phone\b",
        "sms": r"\bsms\b|\btext(?:s|ing)?\b",
        "whatsapp": r"\bwhats ?app\b",
        "wechat": r"\bwe ?chat\b",
        "line": r"\bline\b",
        "telegram": r"\btelegram\b",
        "kakaotalk": r"\bkakao ?(?:talk)?\b",
        "zalo": r"\bzalo\b",
        "viber": r"\bviber\b",
        "signal": r"\bsignal\b",
    },
    # A word that negates its clause (domain/value_support.py: a channel named in a negated clause is not chosen).
    "negation": r"\b(?:no|not|never|don't|do not|doesn't|does not|can't|cannot|won't|stop)\b",
}
